/**
 * The integration canary's state (lib/effects/canary.ts): one row per kind of effect and provider
 * configuration. Every decision that must hold across relays is one conditional update here.
 */
import "server-only";
import { and, asc, desc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { first, getDb } from "../index";
import { effectCanaries, effects } from "../schema";
import type { EffectRow } from "./effects";

export type EffectCanaryRow = typeof effectCanaries.$inferSelect;

const key = (kind: string, fingerprint: string) =>
  and(eq(effectCanaries.kind, kind), eq(effectCanaries.fingerprint, fingerprint));

/**
 * The canary of this configuration, started now if no relay has used it before (a first
 * configuration counts as a change). Racing relays insert once: the primary key decides.
 */
export async function ensureEffectCanary(c: {
  kind: string;
  fingerprint: string;
  provider: string;
  required: number;
  now: Date;
}): Promise<EffectCanaryRow> {
  await getDb()
    .insert(effectCanaries)
    .values({
      kind: c.kind,
      fingerprint: c.fingerprint,
      provider: c.provider,
      required: c.required,
      status: c.required > 0 ? "running" : "passed",
      startedAt: c.now,
      updatedAt: c.now,
      settledAt: c.required > 0 ? null : c.now,
    })
    .onConflictDoNothing();
  const row = await getDb()
    .select()
    .from(effectCanaries)
    .where(key(c.kind, c.fingerprint))
    .then(first);
  if (!row) throw new Error("the effect canary row vanished");
  return row;
}

/** The oldest pending effect of a kind whose backoff is over (the next one a canary releases). */
export async function oldestDueEffectOfKind({
  kind,
  now,
}: {
  kind: string;
  now: Date;
}): Promise<string | null> {
  const row = await getDb()
    .select({ id: effects.id })
    .from(effects)
    .where(
      and(eq(effects.kind, kind), eq(effects.status, "pending"), lte(effects.nextAttemptAt, now)),
    )
    .orderBy(asc(effects.createdAt), asc(effects.id))
    .limit(1)
    .then(first);
  return row?.id ?? null;
}

/**
 * Releases one effect under a running canary: it becomes the canary's current effect only while
 * the canary has none. Of several relays, one wins (the row's update serialises them).
 */
export async function takeCanarySlot(c: {
  kind: string;
  fingerprint: string;
  effectId: string;
  now: Date;
}): Promise<boolean> {
  const row = await getDb()
    .update(effectCanaries)
    .set({ currentEffectId: c.effectId, updatedAt: c.now })
    .where(
      and(
        key(c.kind, c.fingerprint),
        eq(effectCanaries.status, "running"),
        isNull(effectCanaries.currentEffectId),
      ),
    )
    .returning()
    .then(first);
  return row !== null;
}

/** Claims one effect by id if it is due (pending past its backoff, or its lease lapsed). */
export async function claimEffectById(c: {
  id: string;
  now: Date;
  owner: string;
  leaseUntil: Date;
}): Promise<EffectRow | null> {
  return getDb()
    .update(effects)
    .set({
      status: "in_flight",
      leaseOwner: c.owner,
      leaseUntil: c.leaseUntil,
      attempts: sql`${effects.attempts} + 1`,
      updatedAt: c.now,
    })
    .where(
      and(
        eq(effects.id, c.id),
        or(
          and(eq(effects.status, "pending"), lte(effects.nextAttemptAt, c.now)),
          and(eq(effects.status, "in_flight"), lte(effects.leaseUntil, c.now)),
        ),
      ),
    )
    .returning()
    .then(first);
}

/**
 * The canary's current effect was reconciled: one more confirmed, the slot free again, and
 * `passed` once enough were. Only for that effect (a relay whose lease lapsed changes nothing).
 */
export async function confirmCanaryEffect(c: {
  kind: string;
  fingerprint: string;
  effectId: string;
  now: Date;
}): Promise<EffectCanaryRow | null> {
  const done = sql`${effectCanaries.confirmed} + 1 >= ${effectCanaries.required}`;
  return getDb()
    .update(effectCanaries)
    .set({
      confirmed: sql`${effectCanaries.confirmed} + 1`,
      currentEffectId: null,
      status: sql`case when ${done} then 'passed' else 'running' end`,
      // Cast: PostgreSQL cannot infer a parameter's type inside CASE ... ELSE NULL.
      settledAt: sql`case when ${done} then cast(${c.now.getTime()} as bigint) else null end`,
      updatedAt: c.now,
    })
    .where(
      and(
        key(c.kind, c.fingerprint),
        eq(effectCanaries.status, "running"),
        eq(effectCanaries.currentEffectId, c.effectId),
      ),
    )
    .returning()
    .then(first);
}

/** The canary's current effect failed: the canary is held, naming the effect and its code. */
export async function holdCanary(c: {
  kind: string;
  fingerprint: string;
  effectId: string;
  code: string | null;
  now: Date;
}): Promise<EffectCanaryRow | null> {
  return getDb()
    .update(effectCanaries)
    .set({
      status: "held",
      currentEffectId: null,
      failedEffectId: c.effectId,
      lastErrorCode: c.code,
      settledAt: c.now,
      updatedAt: c.now,
    })
    .where(
      and(
        key(c.kind, c.fingerprint),
        eq(effectCanaries.status, "running"),
        eq(effectCanaries.currentEffectId, c.effectId),
      ),
    )
    .returning()
    .then(first);
}

/**
 * Under a held canary, the pending effects of its kind are not sent: each becomes
 * needs_attention (`canary_held`) for staff. The rows changed.
 */
export async function holdPendingEffectsOfKind({
  kind,
  now,
}: {
  kind: string;
  now: Date;
}): Promise<EffectRow[]> {
  return getDb()
    .update(effects)
    .set({
      status: "needs_attention",
      lastErrorCode: "canary_held",
      settledAt: now,
      updatedAt: now,
    })
    .where(and(eq(effects.kind, kind), eq(effects.status, "pending")))
    .returning();
}

/**
 * Staff sent the effect that held a canary back to the relay: the canary runs again with that
 * effect as its current one (its next attempt looks it up first). The canary, or null when the
 * effect held none.
 */
export async function restartCanaryWith({
  effectId,
  now,
}: {
  effectId: string;
  now: Date;
}): Promise<EffectCanaryRow | null> {
  return getDb()
    .update(effectCanaries)
    .set({
      status: "running",
      currentEffectId: effectId,
      failedEffectId: null,
      settledAt: null,
      updatedAt: now,
    })
    .where(and(eq(effectCanaries.failedEffectId, effectId), eq(effectCanaries.status, "held")))
    .returning()
    .then(first);
}

/**
 * Frees the slot of a canary whose current effect was settled outside it (by a relay of another
 * configuration, or held by another configuration's canary): neither confirmed nor failed here.
 */
export async function releaseCanarySlot(c: {
  kind: string;
  fingerprint: string;
  effectId: string;
  now: Date;
}): Promise<void> {
  await getDb()
    .update(effectCanaries)
    .set({ currentEffectId: null, updatedAt: c.now })
    .where(and(key(c.kind, c.fingerprint), eq(effectCanaries.currentEffectId, c.effectId)));
}

/** The current effects of these canaries that are pending (when the relay should look again). */
export async function canaryEffectsNextAt({ ids }: { ids: string[] }): Promise<Date | null> {
  if (ids.length === 0) return null;
  const row = await getDb()
    .select({ at: effects.nextAttemptAt })
    .from(effects)
    .where(and(inArray(effects.id, ids), eq(effects.status, "pending")))
    .orderBy(asc(effects.nextAttemptAt))
    .limit(1)
    .then(first);
  return row?.at ?? null;
}

export async function getEffectCanary({
  kind,
  fingerprint,
}: {
  kind: string;
  fingerprint: string;
}): Promise<EffectCanaryRow | null> {
  return getDb().select().from(effectCanaries).where(key(kind, fingerprint)).then(first);
}

/** The newest canaries first (the staff queue shows them). */
export async function listEffectCanaries({ limit }: { limit: number }): Promise<EffectCanaryRow[]> {
  return getDb()
    .select()
    .from(effectCanaries)
    .orderBy(desc(effectCanaries.startedAt), asc(effectCanaries.kind))
    .limit(limit);
}
