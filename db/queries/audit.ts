/**
 * Reading the audit trail (staff only; writing lives in audit-write.ts). Newest first means
 * `ORDER BY at DESC, id DESC`; pages are keyset pages on (at, id), so a page costs the same on
 * page 1 and page 10,000 and never repeats or skips a row. Every filter has an index ending in
 * `at` (SQLite appends the rowid), so each page, with or without a time range, is one index
 * range read in order: no sort, no scan. The EXPLAIN QUERY PLAN test holds every shape to that.
 */
import "server-only";
import { and, asc, desc, eq, getTableName, gte, inArray, lt, type SQL, sql } from "drizzle-orm";
import { dialect, first, getDb } from "../index";
import {
  AUDIT_COUNT_SPANS,
  AUDIT_STATUSES,
  type AuditStatus,
  auditEvents,
  auditStatusCounts,
  user,
} from "../schema";
import { HOUR_MS } from "./metrics";

export type AuditRow = typeof auditEvents.$inferSelect;

export type AuditFilters = {
  status?: AuditStatus;
  tool?: string;
  chatId?: string;
  userId?: string;
  /** Inclusive. */
  from?: Date;
  /** Exclusive. */
  to?: Date;
};

/** A position in the (at, id) order: the last row of the previous page. */
export type AuditKey = { at: number; id: number };

export type AuditPageRequest = {
  filters: AuditFilters;
  /** Rows older than this key (the "Next" direction), or... */
  before?: AuditKey;
  /** ...rows newer than this key (the "Newer" direction). At most one of the two. */
  after?: AuditKey;
  limit: number;
};

const NEWEST: AuditKey = { at: Number.MAX_SAFE_INTEGER, id: Number.MAX_SAFE_INTEGER };
const cmp = (a: AuditKey, b: AuditKey) => a.at - b.at || a.id - b.id;

/**
 * Exactly one equality filter may use its index; the others get a unary `+` (no index) so
 * SQLite cannot pick a less selective one: chat, then customer, then status (staff filter for
 * the rare failures), then tool.
 */
function equalities(f: AuditFilters): SQL[] {
  const e = auditEvents;
  const pairs = [
    [e.chatId, f.chatId],
    [e.userId, f.userId],
    [e.status, f.status],
    [e.tool, f.tool],
  ] as const;
  const terms: SQL[] = [];
  // PostgreSQL has no unary + on text, and its planner weighs the indexes by statistics itself.
  const hint = dialect() === "sqlite";
  for (const [column, value] of pairs) {
    if (value === undefined) continue;
    terms.push(terms.length > 0 && hint ? sql`+${column} = ${value}` : eq(column, value));
  }
  return terms;
}

/** The page query, unexecuted: listAuditEvents runs it, the EXPLAIN test inspects its SQL. */
export function auditPageQuery(req: AuditPageRequest) {
  const e = auditEvents;
  const f = req.filters;
  const terms = equalities(f);
  // The cursor and the near end of the time range are folded into one row-value bound, which
  // SQLite turns into the start of the index range ((at, id) order matches (..., at, rowid)).
  // Left as two terms, SQLite seeks by one and merely filters by the other, which for `to` far
  // in the past would walk every newer entry. (at, 0) sits below every real id at that time.
  // The first page uses a bound above every row, so it too is a SEARCH, never a SCAN.
  if (req.after) {
    const from = f.from ? { at: f.from.getTime(), id: 0 } : null;
    const low = from && cmp(from, req.after) > 0 ? from : req.after;
    terms.push(sql`(${e.at}, ${e.id}) > (${low.at}, ${low.id})`);
    if (f.to) terms.push(lt(e.at, f.to));
  } else {
    const to = f.to ? { at: f.to.getTime(), id: 0 } : NEWEST;
    const before = req.before ?? NEWEST;
    const high = cmp(to, before) < 0 ? to : before;
    terms.push(sql`(${e.at}, ${e.id}) < (${high.at}, ${high.id})`);
    if (f.from) terms.push(gte(e.at, f.from));
  }
  const newer = req.after !== undefined;
  return getDb()
    .select()
    .from(e)
    .where(and(...terms))
    .orderBy(...(newer ? [asc(e.at), asc(e.id)] : [desc(e.at), desc(e.id)]))
    .limit(req.limit + 1);
}

export const keyOf = (r: AuditRow): AuditKey => ({ at: r.at.getTime(), id: r.id });

/**
 * One page, always newest first. `hasMore` says whether more rows exist in the direction of
 * travel (older for `before`/first page, newer for `after`).
 */
export async function listAuditEvents(
  req: AuditPageRequest,
): Promise<{ rows: AuditRow[]; hasMore: boolean }> {
  const found = await auditPageQuery(req);
  const hasMore = found.length > req.limit;
  const rows = found.slice(0, req.limit);
  if (req.after !== undefined) rows.reverse();
  return { rows, hasMore };
}

/** Every matching row, one keyset page at a time (for the streamed CSV export). */
export async function* iterateAuditEvents({
  filters,
  pageSize = 1000,
}: {
  filters: AuditFilters;
  pageSize?: number;
}): AsyncGenerator<AuditRow[]> {
  let before: AuditKey | undefined;
  for (;;) {
    const { rows, hasMore } = await listAuditEvents({ filters, before, limit: pageSize });
    if (rows.length > 0) yield rows;
    if (!hasMore) return;
    before = keyOf(rows.at(-1)!);
  }
}

export async function getAuditEvent({ id }: { id: number }): Promise<AuditRow | null> {
  return getDb().select().from(auditEvents).where(eq(auditEvents.id, id)).then(first);
}

/** The life of one pending action, oldest first. */
export async function listAuditEventsForAction({
  actionId,
}: {
  actionId: string;
}): Promise<AuditRow[]> {
  return getDb()
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.actionId, actionId))
    .orderBy(asc(auditEvents.id))
    .limit(500);
}

export type StatusCounts = Record<AuditStatus, number>;

/** Where the counts for [from, to) come from: whole counter buckets, and event time ranges. */
export type CountPlan = {
  buckets: { spanHours: number; first: number; end: number }[];
  events: { from: number; to: number }[];
};

/**
 * Splits [from, to) (epoch ms) into the widest whole buckets inside it, then each remainder
 * into whole buckets of the next width, and so on; what is left below an hour (at most one
 * piece at each edge) is counted in audit_events. Exact at any instant: every millisecond of
 * the range is in exactly one part.
 */
export function planStatusCounts(from: number, to: number): CountPlan {
  const plan: CountPlan = { buckets: [], events: [] };
  const split = (a: number, b: number, level: number) => {
    // Also ends a range with an invalid end (NaN), which has no part to count.
    if (!(a < b)) return;
    const spanHours = AUDIT_COUNT_SPANS[level];
    if (spanHours === undefined) {
      plan.events.push({ from: a, to: b });
      return;
    }
    const span = spanHours * HOUR_MS;
    const first = Math.ceil(a / span);
    const end = Math.floor(b / span);
    if (first >= end) return split(a, b, level + 1);
    plan.buckets.push({ spanHours, first, end });
    split(a, first * span, level + 1);
    split(end * span, b, level + 1);
  };
  split(from, to, 0);
  return plan;
}

/**
 * The chart statement's fixed text, built once: drizzle composing a few hundred column and
 * parameter chunks on every call cost more than SQLite running the statement. Identifiers in
 * double quotes read the same on both dialects; the status literals are our own constants.
 */
const CHART = (() => {
  const quote = (name: string) => `"${name}"`;
  const c = auditStatusCounts;
  const e = auditEvents;
  const columns = AUDIT_STATUSES.map((s) => quote(c[s].name)).join(", ");
  const buckets = `SELECT ${columns} FROM ${quote(getTableName(c))} WHERE ${quote(c.spanHours.name)} = `;
  const bucket = quote(c.bucket.name);
  // One count per status rather than a GROUP BY: each is a tight count over one index range,
  // bounded by the edge's row so the statement carries two parameters per edge, not thirty.
  const counts = AUDIT_STATUSES.map(
    (s) =>
      `(SELECT count(*) FROM ${quote(getTableName(e))} WHERE ${quote(e.status.name)} = '${s}' AND ${quote(e.at.name)} >= edge.lo AND ${quote(e.at.name)} < edge.hi) AS ${quote(s)}`,
  ).join(", ");
  return {
    buckets: (spanHours: number) => sql.raw(`${buckets}${Number(spanHours)} AND ${bucket} >= `),
    bucketsTo: sql.raw(` AND ${bucket} < `),
    edge: sql.raw(`SELECT ${counts} FROM (SELECT CAST(`),
    edgeTo: sql.raw(" AS bigint) AS lo, CAST("),
    edgeEnd: sql.raw(" AS bigint) AS hi) AS edge"),
    sums: Object.fromEntries(
      AUDIT_STATUSES.map((s) => [
        s,
        sql<number>`coalesce(sum(${sql.raw(quote(s))}), 0)`.mapWith(Number),
      ]),
    ) as Record<AuditStatus, SQL<number>>,
  };
})();

/**
 * Counts by status for [from, to), exact at any instant, in one statement, which is one
 * consistent snapshot without a transaction. Whole buckets come from audit_status_counts, which
 * the audit writer keeps in the event's own transaction: a range reads at most 2 x 29 day rows,
 * 2 x 23 hour rows and one row per 30 days (a week about 50 rows, ten years about 230). Only the
 * partial hours at the two edges are counted on the (status, at) index, one count per status
 * over index entries only: at most an hour of events at each edge.
 */
export async function countAuditEventsByStatus({
  from,
  to,
}: {
  from: Date;
  to: Date;
}): Promise<StatusCounts> {
  const counts = Object.fromEntries(AUDIT_STATUSES.map((s) => [s, 0])) as StatusCounts;
  const plan = planStatusCounts(from.getTime(), to.getTime());
  const parts: SQL[] = [
    ...plan.buckets.map(
      (b) => sql`${CHART.buckets(b.spanHours)}${b.first}${CHART.bucketsTo}${b.end}`,
    ),
    ...plan.events.map((r) => sql`${CHART.edge}${r.from}${CHART.edgeTo}${r.to}${CHART.edgeEnd}`),
  ];
  if (parts.length === 0) return counts;
  const row = await getDb()
    .select(CHART.sums)
    .from(sql`(${sql.join(parts, sql` UNION ALL `)}) AS parts`)
    .then(first);
  for (const s of AUDIT_STATUSES) counts[s] = row?.[s] ?? 0;
  return counts;
}

export type PersonRow = {
  id: string;
  email: string;
  name: string;
  role: "customer" | "staff";
  /** The store's own id for this customer (a store-vouched account); null otherwise. */
  storeCustomerId: string | null;
};

/** Names and emails for the user ids on a page (one indexed lookup for the whole page). */
export async function getPeopleByIds({ ids }: { ids: string[] }): Promise<Map<string, PersonRow>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await getDb()
    .select({
      id: user.id,
      email: user.email,
      name: user.name,
      role: user.role,
      storeCustomerId: user.storeCustomerId,
    })
    .from(user)
    .where(inArray(user.id, unique));
  return new Map(rows.map((r) => [r.id, r]));
}

/** The customer filter takes an email. better-auth stores emails lower-cased, so the unique index serves. */
export async function findPersonByEmail({ email }: { email: string }): Promise<PersonRow | null> {
  return getDb()
    .select({
      id: user.id,
      email: user.email,
      name: user.name,
      role: user.role,
      storeCustomerId: user.storeCustomerId,
    })
    .from(user)
    .where(eq(user.email, email.trim().toLowerCase()))
    .then(first);
}
