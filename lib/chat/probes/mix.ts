/**
 * Probes from live load: the anonymised profile of a turn, and the probe set built to match the
 * mix of recent profiles (docs/operations.md, "Probes"). A profile holds the turn's shape only:
 * language, message count, sizes, tool names with their arguments' shapes (types, never values),
 * the class of each order touched and the outcome. Pure, so the eval's builder and the tests use
 * the same rules.
 */
import { z } from "zod";
import type { OrderStatus } from "@/db/constants";

export const ORDER_CLASSES = [
  "processing",
  "shipped",
  "delivered_within_window",
  "delivered_past_window",
  "cancelled",
  "foreign",
  "unknown",
] as const;
export type OrderClass = (typeof ORDER_CLASSES)[number];

export const TURN_OUTCOMES = ["answered", "proposed", "refused", "handed_off"] as const;

/** A shape: a type name, an object of shapes, or a list of the shapes an array held. */
export type Shape = string | { [key: string]: Shape } | Shape[];
const ShapeSchema: z.ZodType<Shape> = z.lazy(() =>
  z.union([z.string(), z.array(ShapeSchema), z.record(z.string(), ShapeSchema)]),
);

export const TurnProfile = z.object({
  lang: z.enum(["en", "ru"]),
  /** Messages the model was sent: the stored history and the customer's new one. */
  messages: z.number().int().min(0),
  sizes: z.object({
    /** The customer's new message, in characters. */
    message: z.number().int().min(0),
    /** The model's own text of the answer, in characters. */
    answer: z.number().int().min(0),
  }),
  tools: z.array(
    z.object({
      tool: z.string(),
      args: ShapeSchema,
      /** Keys the model invented, dropped from `args` and only counted: a name can be text. */
      unknownKeys: z.number().int().min(1).optional(),
    }),
  ),
  orders: z.array(z.enum(ORDER_CLASSES)),
  outcome: z.enum(TURN_OUTCOMES),
});
export type TurnProfile = z.infer<typeof TurnProfile>;

/**
 * A value's shape: "string", "number", "boolean", "null", objects by their (sorted) keys, arrays
 * by the distinct shapes of their items. No value survives, only its type.
 */
export function argShape(value: unknown, depth = 0): Shape {
  if (value === null) return "null";
  if (Array.isArray(value)) {
    if (depth >= 4) return "array";
    const seen = new Map<string, Shape>();
    for (const item of value) {
      const s = argShape(item, depth + 1);
      seen.set(JSON.stringify(s), s);
    }
    return [...seen.values()];
  }
  if (typeof value === "object") {
    if (depth >= 4) return "object";
    const out: Record<string, Shape> = {};
    for (const k of Object.keys(value as object).sort())
      out[k] = argShape((value as Record<string, unknown>)[k], depth + 1);
    return out;
  }
  return typeof value;
}

const DAY_MS = 86_400_000;

/** An order as the customer who named it sees it: its status, and delivery against the window. */
export function classifyOrder(
  order: { status: OrderStatus; deliveredAt: Date | null } | null,
  opts: { foreign: boolean; now: Date; windowDays: number },
): OrderClass {
  if (!order) return opts.foreign ? "foreign" : "unknown";
  switch (order.status) {
    case "processing":
      return "processing";
    case "shipped":
    case "in_transit":
      return "shipped";
    case "cancelled":
      return "cancelled";
    case "delivered": {
      if (!order.deliveredAt) return "delivered_within_window";
      const past = opts.now.getTime() - order.deliveredAt.getTime() > opts.windowDays * DAY_MS;
      return past ? "delivered_past_window" : "delivered_within_window";
    }
    default:
      return "unknown";
  }
}

/** The order ids a tool call's arguments name (an `orderId` field). */
export function orderIdsOf(args: unknown): string[] {
  if (typeof args !== "object" || args === null) return [];
  const id = (args as Record<string, unknown>).orderId;
  return typeof id === "string" ? [id] : [];
}

/**
 * The scenario a turn stands for, by which the mix is counted: its language, the tool that
 * mattered (the first write, else the first read, else none) and the class of the first order
 * it touched.
 */
export function scenarioKey(
  p: { lang: string; tools: string[]; orders: string[] },
  writeTools: ReadonlySet<string>,
): string {
  const tool = p.tools.find((t) => writeTools.has(t)) ?? p.tools[0] ?? "none";
  return `${p.lang}|${tool}|${p.orders[0] ?? "none"}`;
}

/** A probe: an utterance of the eval's own tables, never a customer's text. */
export type ProbeCandidate = {
  /** Where it comes from, e.g. `utterances:12` (the table and the row). */
  source: string;
  say: string | string[];
  lang: "en" | "ru";
  tools: string[];
  orders: OrderClass[];
};

export type Probe = ProbeCandidate & { scenario: string };

export type ProbeMix = {
  /** The share of each scenario in the profiles, and how many probes it got. */
  scenarios: {
    scenario: string;
    share: number;
    probes: number;
    matched: "exact" | "tool" | "none";
  }[];
};

/**
 * A probe set in the profiles' mix: each scenario gets probes in proportion to its share (at
 * least one, so a rare scenario is not dropped), drawn round-robin from the candidates of the same
 * scenario, else of the same language and tool. A scenario no candidate fits is reported as
 * unmatched, not filled with something else.
 */
export function buildProbeSet({
  profiles,
  candidates,
  size,
  writeTools,
}: {
  profiles: TurnProfile[];
  candidates: ProbeCandidate[];
  size: number;
  writeTools: ReadonlySet<string>;
}): { mix: ProbeMix; probes: Probe[] } {
  const counts = new Map<string, number>();
  for (const p of profiles) {
    const key = scenarioKey({ ...p, tools: p.tools.map((t) => t.tool) }, writeTools);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const total = profiles.length;
  const byKey = new Map<string, ProbeCandidate[]>();
  const byTool = new Map<string, ProbeCandidate[]>();
  for (const c of candidates) {
    const key = scenarioKey(c, writeTools);
    byKey.set(key, [...(byKey.get(key) ?? []), c]);
    const tool = key.split("|").slice(0, 2).join("|");
    byTool.set(tool, [...(byTool.get(tool) ?? []), c]);
  }
  const scenarios: ProbeMix["scenarios"] = [];
  const probes: Probe[] = [];
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  for (const [scenario, n] of sorted) {
    const share = n / total;
    const want = Math.max(1, Math.round(share * size));
    const exact = byKey.get(scenario);
    const pool = exact ?? byTool.get(scenario.split("|").slice(0, 2).join("|")) ?? [];
    const matched = exact ? "exact" : pool.length > 0 ? "tool" : "none";
    const taken = pool.length === 0 ? 0 : want;
    for (let i = 0; i < taken; i++) probes.push({ ...pool[i % pool.length]!, scenario });
    scenarios.push({ scenario, share, probes: taken, matched });
  }
  return { mix: { scenarios }, probes };
}
