/**
 * Tool results, read as data. The shapes follow lib/tools (the executor's modelView envelope
 * `{ok, data}` / `{ok:false, error:{code}}` around each tool's result) but are parsed loosely and
 * locally: a result that does not fit is "unreadable" and gets an apology, never a guess, and
 * nothing in a result is ever treated as an instruction.
 */
import type { LanguageModelV3ToolResultOutput } from "@ai-sdk/provider";
import { z } from "zod";
import { readKindOf, rowsOf } from "./tool-rows";

const ITEM = z.object({ name: z.string(), quantity: z.number().optional() });
const MONEY = z.object({ amount: z.number(), currency: z.string() });

export const ORDER_FACTS = z.object({
  orderId: z.string(),
  status: z.string(),
  placedAt: z.string().nullish(),
  shippedAt: z.string().nullish(),
  deliveredAt: z.string().nullish(),
  estimatedDeliveryAt: z.string().nullish(),
  items: z.array(ITEM).default([]),
  total: MONEY.nullish(),
  returnRequest: z.object({ requestId: z.string() }).nullish(),
  /** The return policy's word on it, computed by the lookup with the return tool's own rule. */
  returnable: z
    .union([
      z.object({ eligible: z.literal(true) }),
      z.object({ eligible: z.literal(false), code: z.string() }),
    ])
    .nullish(),
});
export type OrderFacts = z.infer<typeof ORDER_FACTS>;

export const POLICY_FACTS = z.object({
  windowDays: z.number(),
  acceptedReasons: z.array(z.string()).default([]),
  refund: z.string().nullish(),
  notReturnable: z.array(z.string()).default([]),
});
export type PolicyFacts = z.infer<typeof POLICY_FACTS>;

/** A write tool's result (with rows of its own: they phrase it), already done before. */
const WRITE_RESULT = z.looseObject({ orderId: z.string(), createdNow: z.boolean() });

const ENVELOPE = z.union([
  z.object({ ok: z.literal(true), status: z.literal("confirmation_required") }),
  z.object({ ok: z.literal(true), data: z.unknown() }),
  z.object({ ok: z.literal(false), error: z.object({ code: z.string() }) }),
]);

export type Fact =
  | { kind: "order"; order: OrderFacts }
  | { kind: "policy"; policy: PolicyFacts }
  | { kind: "existing"; result: unknown }
  | { kind: "proposed" }
  | { kind: "error"; code: string }
  /** Errors without a code (the SDK's tool-error text, a denied call) and unknown shapes. */
  | { kind: "failed" };

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What a tool result says, for the tool that produced it: a read tool by what it reads. */
export function readFact(
  toolName: string,
  output: LanguageModelV3ToolResultOutput | undefined,
): Fact {
  if (!output) return { kind: "failed" };
  let value: unknown;
  if (output.type === "json") value = output.value;
  else if (output.type === "text") value = parseJson(output.value);
  else if (output.type === "error-json") value = output.value;
  else return { kind: "failed" };

  const envelope = ENVELOPE.safeParse(value);
  if (!envelope.success) return { kind: "failed" };
  const e = envelope.data;
  if (!e.ok) return { kind: "error", code: e.error.code };
  if ("status" in e) return { kind: "proposed" };

  const reads = readKindOf(toolName);
  if (reads === "order") {
    const r = ORDER_FACTS.safeParse(e.data);
    return r.success ? { kind: "order", order: r.data } : { kind: "failed" };
  }
  if (reads === "policy") {
    const r = POLICY_FACTS.safeParse(e.data);
    return r.success ? { kind: "policy", policy: r.data } : { kind: "failed" };
  }
  if (rowsOf(toolName) && WRITE_RESULT.safeParse(e.data).success)
    return { kind: "existing", result: e.data };
  return { kind: "failed" };
}
