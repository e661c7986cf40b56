/**
 * Model-call rows and the daily counters behind the staff metrics page. The counters are bumped
 * by the writers inside the transaction that writes what they count; the page reads only them,
 * so its cost depends on the number of days shown, not on the number of events.
 */
import "server-only";
import { and, gte, inArray, lt, notLike, sql } from "drizzle-orm";
import { execute, getDb, one } from "../index";
import { AUDIT_COUNT_SPANS, AUDIT_STATUSES, metricsDaily, modelCalls } from "../schema";
import { writeTransaction } from "./tx";

export type NewModelCall = typeof modelCalls.$inferInsert;
export type ModelCallRow = typeof modelCalls.$inferSelect;
export type DailyBump = { day: number; name: string; key?: string; n: number };

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
/** UTC days since the epoch, the rollup's day key. */
export const dayOf = (at: Date | number) =>
  Math.floor((typeof at === "number" ? at : at.getTime()) / DAY_MS);

/**
 * The rows one bump of the day's counters writes: the same counter twice is summed first, because
 * PostgreSQL refuses to update one row twice in a statement, zero bumps are dropped, and the rows
 * come in key order, so two writers lock counters in the same order and cannot deadlock.
 */
export function dailyRows(bumps: readonly DailyBump[]): Required<DailyBump>[] {
  const rows = new Map<string, Required<DailyBump>>();
  for (const b of bumps) {
    if (b.n === 0) continue;
    const key = b.key ?? "";
    const id = JSON.stringify([b.day, b.name, key]);
    const row = rows.get(id);
    if (row) row.n += b.n;
    else rows.set(id, { day: b.day, name: b.name, key, n: b.n });
  }
  // A Map's keys are distinct, so two are never equal.
  return [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row);
}

/**
 * Adds to the day's counters (creating them). Call inside the writer's transaction. One
 * multi-row upsert (dailyRows), not one statement per counter: a turn bumps about ten.
 */
export async function bumpDaily(bumps: readonly DailyBump[]): Promise<void> {
  const rows = dailyRows(bumps);
  if (rows.length === 0) return;
  await getDb()
    .insert(metricsDaily)
    .values(rows)
    .onConflictDoUpdate({
      target: [metricsDaily.day, metricsDaily.name, metricsDaily.key],
      set: { n: sql`${metricsDaily.n} + excluded.n` },
    });
}

export async function insertModelCall(row: NewModelCall): Promise<number> {
  return one(await getDb().insert(modelCalls).values(row).returning({ id: modelCalls.id })).id;
}

/** A chat's model calls, oldest first (tests and the eval read them back). */
export async function listModelCallsForChat({
  chatId,
}: {
  chatId: string;
}): Promise<ModelCallRow[]> {
  return getDb()
    .select()
    .from(modelCalls)
    .where(sql`${modelCalls.chatId} = ${chatId}`)
    .orderBy(modelCalls.at, modelCalls.id);
}

export type DayRange = { fromDay: number; toDay: number };

/** Every counter summed over [fromDay, toDay): one primary-key range read. */
export async function dailyTotals({
  fromDay,
  toDay,
}: DayRange): Promise<{ name: string; key: string; n: number }[]> {
  const d = metricsDaily;
  return getDb()
    .select({ name: d.name, key: d.key, n: sql<number>`sum(${d.n})`.mapWith(Number) })
    .from(d)
    .where(and(gte(d.day, fromDay), lt(d.day, toDay)))
    .groupBy(d.name, d.key);
}

/**
 * The named counters per day over [fromDay, toDay), summed over their keys, leaving out the keys
 * that start with `excludeKeyPrefix` (an action's effect attempts, `effect:…`, are no decisions).
 */
export async function dailySeries({
  fromDay,
  toDay,
  names,
  excludeKeyPrefix,
}: DayRange & { names: readonly string[]; excludeKeyPrefix?: string }): Promise<
  { day: number; name: string; n: number }[]
> {
  const d = metricsDaily;
  return getDb()
    .select({ day: d.day, name: d.name, n: sql<number>`sum(${d.n})`.mapWith(Number) })
    .from(d)
    .where(
      and(
        gte(d.day, fromDay),
        lt(d.day, toDay),
        inArray(d.name, [...names]),
        excludeKeyPrefix === undefined ? undefined : notLike(d.key, `${excludeKeyPrefix}%`),
      ),
    )
    .groupBy(d.day, d.name)
    .orderBy(d.day);
}

/**
 * Rebuilds the audit counters from audit_events: the daily ones (what migration 0006 does for a
 * database that predates them) and the status chart's buckets (migration 0010 for SQLite, 0002
 * for PostgreSQL). For bulk loads that bypass the writer, such as the audit benchmark.
 */
export async function rebuildAuditCounters(): Promise<void> {
  await writeTransaction(async () => {
    await execute(
      sql.raw("DELETE FROM metrics_daily WHERE name LIKE 'audit.%' OR name LIKE 'action.%'"),
    );
    await execute(
      sql.raw(`INSERT INTO metrics_daily (day, name, key, n)
         SELECT at / ${DAY_MS}, 'audit.' || status, tool, count(*) FROM audit_events GROUP BY 1, 2, 3`),
    );
    await execute(
      sql.raw(`INSERT INTO metrics_daily (day, name, key, n)
         SELECT at / ${DAY_MS}, 'action.' || status, tool, count(*) FROM audit_events
         WHERE action_id IS NOT NULL GROUP BY 1, 2, 3`),
    );
    await execute(sql.raw("DELETE FROM audit_status_counts"));
    const columns = AUDIT_STATUSES.join(", ");
    const counts = AUDIT_STATUSES.map((s) => `count(*) FILTER (WHERE status = '${s}')`).join(", ");
    for (const spanHours of AUDIT_COUNT_SPANS) {
      const span = spanHours * HOUR_MS;
      await execute(
        sql.raw(`INSERT INTO audit_status_counts (span_hours, bucket, ${columns})
           SELECT ${spanHours}, at / ${span}, ${counts} FROM audit_events GROUP BY 2`),
      );
    }
  });
}
