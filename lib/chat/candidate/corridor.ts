/**
 * The drift corridor's arithmetic, pure so its rules are plain to test: turns aggregated into
 * epoch-aligned windows, each window's signals, and a corridor per signal from the baseline
 * windows before it.
 *
 * The corridor is median ± 3 × 1.4826 × MAD (the median absolute deviation, scaled to a standard
 * deviation for normal data): robust, so a few odd windows in the baseline move it little, and
 * it needs no distribution. A baseline of near-identical windows has a MAD near 0, so each signal
 * also has a floor on the half-width (5 points of a share, 10 % of a median latency, context or
 * payload), or every small wobble would be a breach.
 *
 * The tool mix is one signal: the Jensen-Shannon divergence (base 2, so from 0 to 1) of the
 * window's distribution of tool calls from the baseline windows' pooled distribution. Its
 * corridor is one-sided (a mix can only move away; 0 is no change) and comes from the baseline
 * itself, leave-one-out: each baseline window's divergence from the others pooled, then median
 * + 3 × 1.4826 × MAD of those, and at least median + 0.05, so a baseline of identical mixes does
 * not make every new tool call a breach.
 */
import type { DriftSignal } from "@/lib/api/drift";

export type TurnSignal = {
  at: Date;
  /** The profile failed the turn (an error, or a canary the live profile had to answer). */
  failed: boolean;
  refusals: number;
  /** The turn proposed a write that was then declined (cancelled by the customer, rejected by staff). */
  declined: boolean;
  /** The turn's tool calls by name, in call order. */
  tools: string[];
  latencyMs: number;
  inputTokens: number | null;
  /** The bytes of the turn's tool arguments and results (JSON); null for turns before it was kept. */
  payloadBytes: number | null;
};

export type Signals = Record<DriftSignal, number | null>;
export type Band = { low: number; high: number };
export type Corridor = Record<DriftSignal, Band | null>;

export const MAD_K = 3;
/** 1 / Φ⁻¹(3/4): makes the MAD estimate a standard deviation for normal data. */
export const MAD_SCALE = 1.4826;
/** Fewer baseline windows than this give no corridor (and so no breach). */
export const MIN_BASELINE = 3;
/** The tool mix's corridor is at least this far above its median (divergence, 0 to 1). */
export const TOOL_MIX_FLOOR = 0.05;

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

/** How many calls of each tool a window's turns made. */
export type ToolMix = Map<string, number>;

export function toolMixOf(turns: TurnSignal[]): ToolMix {
  const mix: ToolMix = new Map();
  for (const t of turns) for (const tool of t.tools) mix.set(tool, (mix.get(tool) ?? 0) + 1);
  return mix;
}

function pooled(mixes: ToolMix[]): ToolMix {
  const out: ToolMix = new Map();
  for (const m of mixes) for (const [tool, n] of m) out.set(tool, (out.get(tool) ?? 0) + n);
  return out;
}

/**
 * The Jensen-Shannon divergence of two tool mixes in bits (0: the same shares, 1: no tool in
 * common); null when either has no calls, since a share of nothing is no distribution.
 */
export function jsDivergence(a: ToolMix, b: ToolMix): number | null {
  const total = (m: ToolMix) => [...m.values()].reduce((x, y) => x + y, 0);
  const na = total(a);
  const nb = total(b);
  if (na === 0 || nb === 0) return null;
  let d = 0;
  for (const tool of new Set([...a.keys(), ...b.keys()])) {
    const p = (a.get(tool) ?? 0) / na;
    const q = (b.get(tool) ?? 0) / nb;
    const m = (p + q) / 2;
    if (p > 0) d += 0.5 * p * Math.log2(p / m);
    if (q > 0) d += 0.5 * q * Math.log2(q / m);
  }
  // Rounding can leave a hair below 0 or above 1.
  return Math.min(1, Math.max(0, d));
}

/** The window's tool mix against the baseline windows' pooled; null below MIN_BASELINE. */
export function toolMixDivergence(window: ToolMix, baseline: ToolMix[]): number | null {
  if (baseline.length < MIN_BASELINE) return null;
  return jsDivergence(window, pooled(baseline));
}

/** One-sided: leave-one-out divergences of the baseline, median + k scaled MADs, with a floor. */
export function toolMixCorridor(baseline: ToolMix[]): Band | null {
  if (baseline.length < MIN_BASELINE) return null;
  const loo = baseline
    .map((m, i) => jsDivergence(m, pooled(baseline.filter((_, j) => j !== i))))
    .filter((v): v is number => v !== null);
  const m = median(loo);
  if (m === null || loo.length < MIN_BASELINE) return null;
  const mad = median(loo.map((v) => Math.abs(v - m)))!;
  return { low: 0, high: m + Math.max(MAD_K * MAD_SCALE * mad, TOOL_MIX_FLOOR) };
}

/**
 * A window's signals; the tool mix's divergence needs the baseline's mixes (none: null).
 */
export function windowSignals(turns: TurnSignal[], baselineMixes: ToolMix[] = []): Signals {
  const n = turns.length;
  const share = (pred: (t: TurnSignal) => boolean) =>
    n === 0 ? null : turns.filter(pred).length / n;
  const latency = turns.map((t) => t.latencyMs).sort((a, b) => a - b);
  const sorted = (pick: (t: TurnSignal) => number | null) =>
    turns
      .map(pick)
      .filter((v): v is number => v !== null)
      .sort((a, b) => a - b);
  const context = sorted((t) => t.inputTokens);
  const payload = sorted((t) => t.payloadBytes);
  return {
    errorRate: share((t) => t.failed),
    refusalShare: share((t) => t.refusals > 0),
    declinedWriteShare: share((t) => t.declined),
    toolCallShare: share((t) => t.tools.length > 0),
    latencyP50Ms: quantile(latency, 0.5),
    latencyP95Ms: quantile(latency, 0.95),
    contextP50Tokens: quantile(context, 0.5),
    contextP95Tokens: quantile(context, 0.95),
    payloadP50Bytes: quantile(payload, 0.5),
    payloadP95Bytes: quantile(payload, 0.95),
    toolMixDivergence: toolMixDivergence(toolMixOf(turns), baselineMixes),
  };
}

function floorOf(signal: DriftSignal, center: number): number {
  if (RATES.includes(signal)) return 0.05;
  // Latency in ms, context in tokens, payload in bytes: a tenth of the level, and never under a
  // small absolute.
  const absolute = signal.startsWith("latency") ? 50 : signal.startsWith("payload") ? 100 : 20;
  return Math.max(0.1 * Math.abs(center), absolute);
}

/**
 * The corridor of each signal from the baseline windows' signals (and, for the tool mix, their
 * mixes); null below MIN_BASELINE.
 */
export function corridorOf(baseline: Signals[], baselineMixes: ToolMix[] = []): Corridor | null {
  if (baseline.length < MIN_BASELINE) return null;
  const out = {} as Corridor;
  for (const signal of Object.keys(baseline[0]!) as DriftSignal[]) {
    if (signal === "toolMixDivergence") {
      out[signal] = toolMixCorridor(baselineMixes);
      continue;
    }
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
