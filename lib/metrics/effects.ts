/**
 * The metrics page's effects section: of the effects confirmed in the chosen days (a
 * cancellation's refund), how many are in each status, by kind, and how long they took from the
 * confirm to settling (succeeded, failed or needs_attention): p50, p90 and the slowest, exact.
 */
import "server-only";
import { EFFECT_STATUSES, type EffectStatus } from "@/db/constants";
import {
  countEffectsByKindAndStatus,
  countSettledEffects,
  type EffectRange,
  nthSettleMs,
} from "@/db/queries/effect-metrics";
import { countQueue } from "@/db/queries/effects";
import { DAY_MS } from "@/db/queries/metrics";

export type EffectKindFigures = {
  kind: string;
  total: number;
  byStatus: Record<EffectStatus, number>;
  /** Time from confirm to settled over the settled ones; null when none has settled. */
  settle: { count: number; p50: number; p90: number; max: number } | null;
};

export type EffectsReport = {
  kinds: EffectKindFigures[];
  /** Effects waiting for staff now (failed or needs_attention), whatever the range: the queue. */
  queue: number;
};

/** Nearest rank: the smallest value with at least q of the values at or below it. */
export const rankOf = (q: number, n: number) => Math.max(1, Math.ceil(q * n));

export async function effectsReport({
  fromDay,
  toDay,
}: {
  fromDay: number;
  toDay: number;
}): Promise<EffectsReport> {
  const range: EffectRange = { from: new Date(fromDay * DAY_MS), to: new Date(toDay * DAY_MS) };
  const counts = await countEffectsByKindAndStatus(range);
  const kinds = [...new Set(counts.map((c) => c.kind))];
  const out: EffectKindFigures[] = [];
  for (const kind of kinds) {
    const byStatus = Object.fromEntries(EFFECT_STATUSES.map((s) => [s, 0])) as Record<
      EffectStatus,
      number
    >;
    for (const c of counts) if (c.kind === kind) byStatus[c.status] += c.n;
    const settled = await countSettledEffects(kind, range);
    const at = async (q: number) => (await nthSettleMs(kind, range, rankOf(q, settled))) ?? 0;
    out.push({
      kind,
      total: Object.values(byStatus).reduce((s, n) => s + n, 0),
      byStatus,
      settle:
        settled === 0
          ? null
          : { count: settled, p50: await at(0.5), p90: await at(0.9), max: await at(1) },
    });
  }
  return { kinds: out, queue: await countQueue() };
}
