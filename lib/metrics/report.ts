/**
 * The staff metrics page's numbers over a range of UTC days, computed from the daily counters
 * (db/queries/metrics.ts) only: a range of 7 or 365 days costs the same few hundred rows,
 * however many turns and audit events it covers. Percentiles come from the latency histograms,
 * so they are approximate (within ~12%, see BUCKET_GROWTH).
 */
import "server-only";
import { z } from "zod";
import { DAY_MS, dailySeries, dailyTotals, dayOf } from "@/db/queries/metrics";
import { BUCKET_GROWTH } from "@/lib/ai/model-calls";
import { TOOLS } from "@/lib/tools/registry";

export const DECISIONS = [
  "confirmed",
  "cancelled",
  "expired",
  "superseded",
  "stale",
  "failed",
] as const;
export type Decision = (typeof DECISIONS)[number];
/** The audit status a pending action's decision is recorded with (lib/actions/transition.ts). */
const DECISION_STATUS: Record<Decision, string> = {
  confirmed: "success",
  cancelled: "cancelled",
  expired: "expired",
  superseded: "superseded",
  stale: "stale",
  failed: "technical_error",
};
export const TOOL_ERROR_KINDS = [
  "rejected",
  "business_error",
  "timeout",
  "technical_error",
] as const;
export const TURN_ERROR_KINDS = ["model_error", "aborted", "save_failed"] as const;
/** The audit tool name of an effect's attempts: `effect:payment.refund`. */
const EFFECT_TOOL_PREFIX = "effect:";

export type Percentiles = { p50: number; p95: number } | null;
export type DayPoint = {
  day: string;
  turns: number;
  turnErrors: number;
  tokens: number;
  proposals: number;
  confirmed: number;
};

export type MetricsReport = {
  range: { from: string; to: string; days: number };
  turns: number;
  chats: number;
  latencyMs: Percentiles;
  ttftMs: Percentiles;
  tokens: { input: number; output: number; perTurn: number | null; perChat: number | null };
  toolTurnShare: number | null;
  toolMix: { tool: string; calls: number; share: number }[];
  proposals: number;
  decisions: Record<Decision, number>;
  /** Confirmed out of the proposals decided by the customer or the clock (not still pending). */
  confirmRate: number | null;
  policyRefusals: { count: number; writeCalls: number; share: number | null };
  toolCalls: number;
  toolErrors: { kind: string; count: number; share: number | null }[];
  turnErrors: { kind: string; count: number; share: number | null }[];
  models: { model: string; turns: number }[];
  series: DayPoint[];
};

const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const ratio = (a: number, b: number) => (b > 0 ? a / b : null);

/** p50/p95 from a histogram keyed by bucket index (see latencyBucket). */
export function histogramPercentiles(buckets: Map<number, number>): Percentiles {
  const total = [...buckets.values()].reduce((s, n) => s + n, 0);
  if (total === 0) return null;
  const sorted = [...buckets.entries()].sort((a, b) => a[0] - b[0]);
  const at = (q: number) => {
    const rank = Math.ceil(q * total);
    let seen = 0;
    for (const [bucket, n] of sorted) {
      seen += n;
      if (seen >= rank) {
        if (bucket === 0) return 1;
        // The geometric middle of (g^(b-1), g^b].
        return Math.round(BUCKET_GROWTH ** (bucket - 0.5));
      }
    }
    return Math.round(BUCKET_GROWTH ** (sorted.at(-1)![0] - 0.5));
  };
  return { p50: at(0.5), p95: at(0.95) };
}

const RANGE = z.object({
  from: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  to: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});
export const MAX_RANGE_DAYS = 366;
/** Why the typed range was replaced by the default (the page words it). */
export type RangeProblem = "format" | "no_such_day" | "reversed" | "too_long";

/**
 * The page's range from its URL: calendar days (UTC), both inclusive, default the last 7 days.
 * A bad value is reported and replaced by the default, never a crash.
 */
export function parseMetricsRange(
  params: Record<string, string | string[] | undefined>,
  now = new Date(),
): { fromDay: number; toDay: number; from: string; to: string; problems: RangeProblem[] } {
  const today = dayOf(now);
  const fallback = { fromDay: today - 6, toDay: today + 1 };
  const pick = (k: string) => {
    const v = params[k];
    return (Array.isArray(v) ? v[0] : v)?.trim() ?? "";
  };
  const raw = { from: pick("from"), to: pick("to") };
  const problems: RangeProblem[] = [];
  const parsed = RANGE.safeParse({
    from: raw.from || isoDay(fallback.fromDay),
    to: raw.to || isoDay(today),
  });
  const toDayNum = (s: string) => {
    const t = Date.parse(`${s}T00:00:00.000Z`);
    return Number.isNaN(t) || isoDay(t / DAY_MS) !== s ? null : t / DAY_MS;
  };
  let range = fallback;
  if (!parsed.success) problems.push("format");
  else {
    const from = toDayNum(parsed.data.from);
    const to = toDayNum(parsed.data.to);
    if (from === null || to === null) problems.push("no_such_day");
    else if (from > to) problems.push("reversed");
    else if (to - from + 1 > MAX_RANGE_DAYS) problems.push("too_long");
    else range = { fromDay: from, toDay: to + 1 };
  }
  return { ...range, from: isoDay(range.fromDay), to: isoDay(range.toDay - 1), problems };
}

const SERIES = {
  turns: "turn",
  turnErrors: "turn.error",
  inputTokens: "turn.input_tokens",
  outputTokens: "turn.output_tokens",
  proposals: "action.confirmation_required",
  confirmed: "action.success",
} as const;

export async function metricsReport({
  fromDay,
  toDay,
}: {
  fromDay: number;
  toDay: number;
}): Promise<MetricsReport> {
  const totals = await dailyTotals({ fromDay, toDay });
  const get = (name: string, key = "") =>
    totals.find((t) => t.name === name && t.key === key)?.n ?? 0;
  const keyed = (name: string) => totals.filter((t) => t.name === name);
  // An action's events include its effects' attempts (tool `effect:<kind>`, e.g. a refund's
  // `success`): they are the relay's, not decisions, and must not count as confirms.
  const sum = (name: string) =>
    keyed(name)
      .filter((t) => !t.key.startsWith(EFFECT_TOOL_PREFIX))
      .reduce((s, t) => s + t.n, 0);
  const histogram = (name: string) => new Map(keyed(name).map((t) => [Number(t.key), t.n]));

  const turns = get("turn");
  const chats = get("turn.chat_start");
  const input = get("turn.input_tokens");
  const output = get("turn.output_tokens");

  // Tool calls the model made: every audit event except the ones of an action's life after
  // its proposal (the decisions are the customer's and the clock's, not the model's).
  const writeTools = new Set<string>(TOOLS.filter((t) => t.access === "write").map((t) => t.name));
  const modelMade = (status: string, tool?: string) => {
    const a = keyed(`audit.${status}`).filter((t) => tool === undefined || t.key === tool);
    const b = keyed(`action.${status}`).filter((t) => tool === undefined || t.key === tool);
    const decided = status === "confirmation_required" ? 0 : b.reduce((s, t) => s + t.n, 0);
    return a.reduce((s, t) => s + t.n, 0) - decided;
  };
  const statuses = new Set(
    totals.filter((t) => t.name.startsWith("audit.")).map((t) => t.name.slice("audit.".length)),
  );
  const toolCalls = [...statuses].reduce((s, st) => s + modelMade(st), 0);
  const toolErrors = TOOL_ERROR_KINDS.map((kind) => {
    const count = modelMade(kind);
    return { kind, count, share: ratio(count, toolCalls) };
  });

  const writeCalls = [...writeTools].reduce(
    (s, tool) => s + [...statuses].reduce((x, st) => x + modelMade(st, tool), 0),
    0,
  );
  const refused = [...writeTools].reduce((s, tool) => s + modelMade("business_error", tool), 0);

  const proposals = sum("action.confirmation_required");
  const decisions = Object.fromEntries(
    DECISIONS.map((d) => [d, sum(`action.${DECISION_STATUS[d]}`)]),
  ) as Record<Decision, number>;
  const decided = DECISIONS.reduce((s, d) => s + decisions[d], 0);

  const mix = keyed("turn.tool").sort((a, b) => b.n - a.n || a.key.localeCompare(b.key));
  const mixTotal = mix.reduce((s, t) => s + t.n, 0);

  const rows = await dailySeries({
    fromDay,
    toDay,
    names: Object.values(SERIES),
    excludeKeyPrefix: EFFECT_TOOL_PREFIX,
  });
  const byDay = new Map<number, Map<string, number>>();
  for (const r of rows) {
    const m = byDay.get(r.day) ?? new Map<string, number>();
    m.set(r.name, r.n);
    byDay.set(r.day, m);
  }
  const series: DayPoint[] = [];
  for (let d = fromDay; d < toDay; d++) {
    const m = byDay.get(d);
    const v = (name: string) => m?.get(name) ?? 0;
    series.push({
      day: isoDay(d),
      turns: v(SERIES.turns),
      turnErrors: v(SERIES.turnErrors),
      tokens: v(SERIES.inputTokens) + v(SERIES.outputTokens),
      proposals: v(SERIES.proposals),
      confirmed: v(SERIES.confirmed),
    });
  }

  return {
    range: { from: isoDay(fromDay), to: isoDay(toDay - 1), days: toDay - fromDay },
    turns,
    chats,
    latencyMs: histogramPercentiles(histogram("turn.latency")),
    ttftMs: histogramPercentiles(histogram("turn.ttft")),
    tokens: {
      input,
      output,
      perTurn: ratio(input + output, turns),
      perChat: ratio(input + output, chats),
    },
    toolTurnShare: ratio(get("turn.tools"), turns),
    toolMix: mix.map((t) => ({ tool: t.key, calls: t.n, share: t.n / mixTotal })),
    proposals,
    decisions,
    confirmRate: ratio(decisions.confirmed, decided),
    policyRefusals: { count: refused, writeCalls, share: ratio(refused, writeCalls) },
    toolCalls,
    toolErrors,
    turnErrors: TURN_ERROR_KINDS.map((kind) => {
      const count = get("turn.error", kind);
      return { kind, count, share: ratio(count, turns) };
    }),
    models: keyed("turn.model")
      .map((t) => ({ model: t.key, turns: t.n }))
      .sort((a, b) => b.turns - a.turns),
    series,
  };
}
