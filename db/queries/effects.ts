/**
 * The effects outbox (docs/effects.md). A confirm inserts its effects in its own transaction; a
 * relay claims due ones with a lease, calls the provider outside any transaction, and records
 * the outcome only while it still holds that lease.
 */
import "server-only";
import { and, asc, desc, eq, inArray, lte, notInArray, or, type SQL, sql } from "drizzle-orm";
import { dialect, first, getDb } from "../index";
import { pendingActions as actions, type EffectStatus, effects, user } from "../schema";

export type EffectRow = typeof effects.$inferSelect;
export type NewEffectRow = typeof effects.$inferInsert;

/** Inserts a confirmed action's effects (inside the confirm's transaction). */
export async function insertEffects(rows: NewEffectRow[]): Promise<EffectRow[]> {
  if (rows.length === 0) return [];
  return getDb().insert(effects).values(rows).returning();
}

/**
 * Inserts effects unless the action already has one of that kind (UNIQUE action_id + kind):
 * a mail that follows a refund's outcome, or the refund a received return schedules. The rows
 * inserted now; a kind that existed is left as it was.
 */
export async function insertEffectsIfAbsent(rows: NewEffectRow[]): Promise<EffectRow[]> {
  if (rows.length === 0) return [];
  return getDb().insert(effects).values(rows).onConflictDoNothing().returning();
}

export async function getEffectByActionKind({
  actionId,
  kind,
}: {
  actionId: string;
  kind: string;
}): Promise<EffectRow | null> {
  return getDb()
    .select()
    .from(effects)
    .where(and(eq(effects.actionId, actionId), eq(effects.kind, kind)))
    .then(first);
}

export async function getEffect({ id }: { id: string }): Promise<EffectRow | null> {
  return getDb().select().from(effects).where(eq(effects.id, id)).then(first);
}

/** An action's effects in the order they were created (GET /api/actions/{id}). */
export async function listEffectsForAction({
  actionId,
}: {
  actionId: string;
}): Promise<EffectRow[]> {
  return getDb()
    .select()
    .from(effects)
    .where(eq(effects.actionId, actionId))
    .orderBy(asc(effects.createdAt), asc(effects.id));
}

/** The effects of several actions in one query (a chat's cards). */
export async function listEffectsForActions({
  actionIds,
}: {
  actionIds: string[];
}): Promise<EffectRow[]> {
  return getDb()
    .select()
    .from(effects)
    .where(inArray(effects.actionId, actionIds))
    .orderBy(asc(effects.createdAt), asc(effects.id));
}

/** Pending and past its backoff, or in flight under a lease that has lapsed (its relay died). */
const dueAt = (now: Date, excludeKinds: string[] = []) =>
  and(
    or(
      and(eq(effects.status, "pending"), lte(effects.nextAttemptAt, now)),
      and(eq(effects.status, "in_flight"), lte(effects.leaseUntil, now)),
    ),
    // Kinds under an integration canary go one at a time, through their own claim.
    // None excluded: notInArray of an empty list is `true`.
    notInArray(effects.kind, excludeKinds),
  );

/**
 * Claims up to `limit` due effects for one relay: each becomes `in_flight` under `owner` until
 * `leaseUntil`, with one more attempt counted (so an attempt whose relay died still counts).
 * PostgreSQL: the candidates are locked with FOR UPDATE SKIP LOCKED, so relays of several
 * instances claim disjoint sets without waiting on each other; the outer WHERE repeats the
 * condition, so a row another relay claimed in between is not taken twice. SQLite: one
 * statement under the connection's lock, and across processes the file's write lock.
 */
export async function claimDueEffects({
  now,
  owner,
  leaseUntil,
  limit,
  excludeKinds = [],
}: {
  now: Date;
  owner: string;
  leaseUntil: Date;
  limit: number;
  excludeKinds?: string[];
}): Promise<EffectRow[]> {
  const due = dueAt(now, excludeKinds);
  const select = sql`select ${effects.id} from ${effects} where ${due} order by ${effects.nextAttemptAt} limit ${limit}`;
  // PostgreSQL may run an `IN (subquery)` again for each row it updates, each run locking and
  // skipping afresh: one relay then claimed every due effect, whatever the limit (a test caught
  // 5 for a limit of 2). ARRAY(subquery) is an InitPlan, run once per statement.
  const candidates =
    dialect() === "postgres"
      ? sql`${effects.id} = any(array(${select} for update skip locked))`
      : sql`${effects.id} in (${select})`;
  return getDb()
    .update(effects)
    .set({
      status: "in_flight",
      leaseOwner: owner,
      leaseUntil,
      attempts: sql`${effects.attempts} + 1`,
      updatedAt: now,
    })
    .where(and(candidates, due))
    .returning();
}

/** What one attempt changes on its effect. */
export type EffectOutcomeSet = {
  status: Exclude<EffectStatus, "in_flight" | "resolved">;
  nextAttemptAt?: Date;
  lastErrorCode?: string | null;
  providerRef?: string | null;
  idempotencyKey?: string;
  settledAt?: Date | null;
};

/**
 * Records an attempt's outcome, only if `owner` still holds the effect's lease: a relay whose
 * lease lapsed (and whose effect another relay took over) records nothing. The updated row, or
 * null.
 */
export async function recordEffectOutcome({
  id,
  owner,
  now,
  set,
}: {
  id: string;
  owner: string;
  now: Date;
  set: EffectOutcomeSet;
}): Promise<EffectRow | null> {
  return getDb()
    .update(effects)
    .set({ ...set, leaseOwner: null, leaseUntil: null, updatedAt: now })
    .where(and(eq(effects.id, id), eq(effects.status, "in_flight"), eq(effects.leaseOwner, owner)))
    .returning()
    .then(first);
}

/** The statuses the staff queue shows: the relay is done with them and a person must act. */
export const QUEUE_STATUSES = ["failed", "needs_attention"] as const satisfies EffectStatus[];

export type QueueRow = EffectRow & {
  customerId: string | null;
  customerEmail: string | null;
  chatId: string | null;
  tool: string | null;
};

/**
 * Effects in these statuses, newest first, with the action's customer (the staff queue and
 * GET /api/staff/effects). Served by effects_status_created_idx.
 */
export async function listEffectsByStatus({
  statuses,
  limit,
}: {
  statuses: EffectStatus[];
  limit: number;
}): Promise<QueueRow[]> {
  return queueRows(inArray(effects.status, statuses), limit);
}

/** One effect with its action's customer (the answer of a retry or resolve). */
export async function getQueueRow({ id }: { id: string }): Promise<QueueRow | null> {
  return (await queueRows(eq(effects.id, id), 1))[0] ?? null;
}

async function queueRows(where: SQL | undefined, limit: number): Promise<QueueRow[]> {
  const rows = await getDb()
    .select({
      effect: effects,
      customerId: actions.userId,
      customerEmail: user.email,
      chatId: actions.chatId,
      tool: actions.tool,
    })
    .from(effects)
    .leftJoin(actions, eq(actions.id, effects.actionId))
    .leftJoin(user, eq(user.id, actions.userId))
    .where(where)
    .orderBy(desc(effects.createdAt), desc(effects.id))
    .limit(limit);
  return rows.map((r) => ({
    ...r.effect,
    customerId: r.customerId,
    customerEmail: r.customerEmail,
    chatId: r.chatId,
    tool: r.tool,
  }));
}

/** How many effects wait for a person (the queue's size, for the metrics page). */
export async function countQueue(): Promise<number> {
  const rows = await getDb()
    .select({ n: sql<number>`count(*)` })
    .from(effects)
    .where(inArray(effects.status, [...QUEUE_STATUSES]));
  return Number(rows[0]?.n ?? 0);
}

/**
 * Staff sent a failed or needs_attention effect back to the relay: `pending` now, with a fresh
 * attempt budget and the same idempotency key. `last_error_code` stays, which tells the relay
 * that the next attempt must look the effect up before sending (it was attempted before). The
 * updated row, or null when it was not in one of those statuses or no longer at `seen` (its
 * updated_at when staff looked): a compare-and-set, so racing retries of one failure claim it once.
 */
export async function retryEffect({
  id,
  now,
  seen,
}: {
  id: string;
  now: Date;
  seen: Date;
}): Promise<EffectRow | null> {
  return getDb()
    .update(effects)
    .set({
      status: "pending",
      attempts: 0,
      nextAttemptAt: now,
      leaseOwner: null,
      leaseUntil: null,
      settledAt: null,
      retriedAt: now,
      updatedAt: now,
    })
    .where(
      and(
        eq(effects.id, id),
        inArray(effects.status, [...QUEUE_STATUSES]),
        eq(effects.updatedAt, seen),
      ),
    )
    .returning()
    .then(first);
}

/**
 * Staff settled a failed or needs_attention effect by hand, with a note. The updated row, or null
 * when it was in another status (a second resolve finds it `resolved`).
 */
export async function resolveEffect({
  id,
  now,
  note,
  staffId,
}: {
  id: string;
  now: Date;
  note: string;
  staffId: string;
}): Promise<EffectRow | null> {
  return getDb()
    .update(effects)
    .set({
      status: "resolved",
      resolutionNote: note,
      resolvedBy: staffId,
      // settled_at stays when the relay settled it: the metrics' time to settle is the relay's.
      updatedAt: now,
    })
    .where(and(eq(effects.id, id), inArray(effects.status, [...QUEUE_STATUSES])))
    .returning()
    .then(first);
}

/** The earliest time a pending effect becomes due (the relay sleeps until then at most). */
export async function nextDueAt({
  excludeKinds = [],
}: {
  excludeKinds?: string[];
} = {}): Promise<Date | null> {
  const row = await getDb()
    .select({ at: effects.nextAttemptAt })
    .from(effects)
    .where(and(eq(effects.status, "pending"), notInArray(effects.kind, excludeKinds)))
    .orderBy(asc(effects.nextAttemptAt))
    .limit(1)
    .then(first);
  return row?.at ?? null;
}
