/**
 * The drift corridor's arithmetic, pure so its rules are plain to test: turns aggregated into
 * epoch-aligned windows, each window's signals, and a corridor per signal from the baseline
 * windows before it.
 *
 * The corridor is median ± 3 × 1.4826 × MAD (the median absolute deviation, scaled to a standard
 * deviation for normal data): robust, so a few odd windows in the baseline move it little, and
 * it needs no distribution. A baseline of near-identical windows has a MAD near 0, so each signal
 * also has a floor on the half-width (5 points of a share, 10 % of a median latency or context),
 * or every small wobble would be a breach.
 */
import type { DriftSignal } from "@/lib/api/drift";

export type TurnSignal = {
  at: Date;
  /** The profile failed the turn (an error, or a canary the live profile had to answer). */
  failed: boolean;
  refusals: number;
  /** The turn proposed a write that was then declined (cancelled by the customer, rejected by staff). */
  declined: boolean;
  toolCalls: number;
  latencyMs: number;
  inputTokens: number | null;
};

export type Signals = Record<DriftSignal, number | null>;
export type Band = { low: number; high: number };
export type Corridor = Record<DriftSignal, Band | null>;

export const MAD_K = 3;
/** 1 / Φ⁻¹(3/4): makes the MAD estimate a standard deviation for normal data. */
export const MAD_SCALE = 1.4826;
/** Fewer baseline windows than this give no corridor (and so no breach). */
export const MIN_BASELINE = 3;

const RATES: DriftSignal[] = ["errorRate", "refusalShare", "declinedWriteShare", "toolCallShare"];

/** The q-quantile of sorted numbers, nearest rank; null for none. */
export function quantile(sorted: number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function windowSignals(turns: TurnSignal[]): Signals {
  const n = turns.length;
  const share = (pred: (t: TurnSignal) => boolean) =>
    n === 0 ? null : turns.filter(pred).length / n;
  const latency = turns.map((t) => t.latencyMs).sort((a, b) => a - b);
  const context = turns
    .map((t) => t.inputTokens)
    .filter((v): v is number => v !== null)
    .sort((a, b) => a - b);
  return {
    errorRate: share((t) => t.failed),
    refusalShare: share((t) => t.refusals > 0),
    declinedWriteShare: share((t) => t.declined),
    toolCallShare: share((t) => t.toolCalls > 0),
    latencyP50Ms: quantile(latency, 0.5),
    latencyP95Ms: quantile(latency, 0.95),
    contextP50Tokens: quantile(context, 0.5),
    contextP95Tokens: quantile(context, 0.95),
  };
}

function floorOf(signal: DriftSignal, center: number): number {
  if (RATES.includes(signal)) return 0.05;
  // Latency in ms, context in tokens: a tenth of the level, and never under a small absolute.
  return Math.max(0.1 * Math.abs(center), signal.startsWith("latency") ? 50 : 20);
}

/** The corridor of each signal from the baseline windows' signals; null below MIN_BASELINE. */
export function corridorOf(baseline: Signals[]): Corridor | null {
  if (baseline.length < MIN_BASELINE) return null;
  const out = {} as Corridor;
  for (const signal of Object.keys(baseline[0]!) as DriftSignal[]) {
    const values = baseline.map((b) => b[signal]).filter((v): v is number => v !== null);
    const m = median(values);
    if (m === null || values.length < MIN_BASELINE) {
      out[signal] = null;
      continue;
    }
    const mad = median(values.map((v) => Math.abs(v - m)))!;
    const half = Math.max(MAD_K * MAD_SCALE * mad, floorOf(signal, m));
    out[signal] = { low: m - half, high: m + half };
  }
  return out;
}

/** The signals of a window outside their corridor, either side. */
export function breaches(signals: Signals, corridor: Corridor | null): DriftSignal[] {
  if (!corridor) return [];
  return (Object.keys(signals) as DriftSignal[]).filter((s) => {
    const v = signals[s];
    const band = corridor[s];
    return v !== null && band !== null && (v < band.low || v > band.high);
  });
}
