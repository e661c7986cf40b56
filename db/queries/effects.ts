/**
 * The effects outbox (docs/effects.md). A confirm inserts its effects in its own transaction; a
 * relay claims due ones with a lease, calls the provider outside any transaction, and records
 * the outcome only while it still holds that lease.
 */
import "server-only";
import { and, asc, eq, inArray, lte, or, sql } from "drizzle-orm";
import { dialect, first, getDb } from "../index";
import { type EffectStatus, effects } from "../schema";

export type EffectRow = typeof effects.$inferSelect;
export type NewEffectRow = typeof effects.$inferInsert;

/** Inserts a confirmed action's effects (inside the confirm's transaction). */
export async function insertEffects(rows: NewEffectRow[]): Promise<EffectRow[]> {
  if (rows.length === 0) return [];
  return getDb().insert(effects).values(rows).returning();
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
  if (actionIds.length === 0) return [];
  return getDb()
    .select()
    .from(effects)
    .where(inArray(effects.actionId, actionIds))
    .orderBy(asc(effects.createdAt), asc(effects.id));
}

/** Pending and past its backoff, or in flight under a lease that has lapsed (its relay died). */
const dueAt = (now: Date) =>
  or(
    and(eq(effects.status, "pending"), lte(effects.nextAttemptAt, now)),
    and(eq(effects.status, "in_flight"), lte(effects.leaseUntil, now)),
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
}: {
  now: Date;
  owner: string;
  leaseUntil: Date;
  limit: number;
}): Promise<EffectRow[]> {
  const select = sql`select ${effects.id} from ${effects} where ${dueAt(now)} order by ${effects.nextAttemptAt} limit ${limit}`;
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
    .where(and(candidates, dueAt(now)))
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

/** Staff settled a `needs_attention` effect by hand. The updated row, or null. */
export async function resolveEffect({
  id,
  now,
}: {
  id: string;
  now: Date;
}): Promise<EffectRow | null> {
  return getDb()
    .update(effects)
    .set({ status: "resolved", updatedAt: now })
    .where(and(eq(effects.id, id), eq(effects.status, "needs_attention")))
    .returning()
    .then(first);
}

/** The earliest time a pending effect becomes due (the relay sleeps until then at most). */
export async function nextDueAt(): Promise<Date | null> {
  const row = await getDb()
    .select({ at: effects.nextAttemptAt })
    .from(effects)
    .where(eq(effects.status, "pending"))
    .orderBy(asc(effects.nextAttemptAt))
    .limit(1)
    .then(first);
  return row?.at ?? null;
}
