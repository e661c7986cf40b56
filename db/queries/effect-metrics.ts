/**
 * The metrics page's figures about effects (docs/effects.md): how many of the effects confirmed in
 * a range are in each status, by kind, and how long they took from the confirm to settling
 * (`settled_at - created_at`; `created_at` is the confirm's own time). Read from the outbox
 * itself: one effect per confirmed cancellation is far fewer rows than the audit trail, and
 * the current status of each cohort is not a counter that only ever grows.
 */
import "server-only";
import { and, asc, count, eq, gte, isNotNull, lt, sql } from "drizzle-orm";
import { first, getDb } from "../index";
import { type EffectStatus, effects } from "../schema";

export type EffectRange = { from: Date; to: Date };

const confirmedIn = ({ from, to }: EffectRange) =>
  and(gte(effects.createdAt, from), lt(effects.createdAt, to));

/** Effects confirmed in [from, to), counted by kind and current status. */
export async function countEffectsByKindAndStatus(
  range: EffectRange,
): Promise<{ kind: string; status: EffectStatus; n: number }[]> {
  return getDb()
    .select({ kind: effects.kind, status: effects.status, n: count() })
    .from(effects)
    .where(confirmedIn(range))
    .groupBy(effects.kind, effects.status)
    .orderBy(asc(effects.kind), asc(effects.status));
}

const settleMs = sql<number>`(${effects.settledAt} - ${effects.createdAt})`.mapWith(Number);

const settledOf = (kind: string, range: EffectRange) =>
  and(eq(effects.kind, kind), confirmedIn(range), isNotNull(effects.settledAt));

/** How many effects of `kind` confirmed in the range have settled (have a settle time). */
export async function countSettledEffects(kind: string, range: EffectRange): Promise<number> {
  const row = await getDb()
    .select({ n: count() })
    .from(effects)
    .where(settledOf(kind, range))
    .then(first);
  return row?.n ?? 0;
}

/**
 * The `rank`-th shortest time from confirm to settled (1-based) among those effects: an exact
 * nearest-rank percentile, the same statement on both dialects (no percentile functions there).
 */
export async function nthSettleMs(
  kind: string,
  range: EffectRange,
  rank: number,
): Promise<number | null> {
  const row = await getDb()
    .select({ ms: settleMs })
    .from(effects)
    .where(settledOf(kind, range))
    .orderBy(asc(settleMs))
    .limit(1)
    .offset(rank - 1)
    .then(first);
  return row?.ms ?? null;
}
