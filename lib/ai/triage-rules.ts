/**
 * Triage without a model (the offline provider): computed from what the chat shows: the tools
 * that ran, the actions and how they ended, and keywords in the customer's own messages
 * (English and Russian, like the offline chat model). Deterministic: the same transcript always
 * gives the same triage, so staff and tests can rely on it.
 */
import { z } from "zod";
import type { StaffActionRow } from "@/db/queries/audit-transcript";
import { clip, NEXT_STEP_MAX, SUMMARY_MAX, TRIAGE, type Triage } from "@/lib/api/triage";
import type { TranscriptMessage } from "@/lib/audit/transcript";
import { getTool } from "@/lib/tools/registry";
import type { WriteTool } from "@/lib/tools/types";

const has = (text: string, words: RegExp) => words.test(text);
const NEGATIVE =
  /damag|broken|defect|angry|terrible|awful|disappoint|unacceptable|worst|not work|doesn'?t work|never arrived|повре(ж|д)|слома|ужас|плох|разочар|не работает|брак/gi;
const POSITIVE = /thank|great|perfect|awesome|appreciate|спасибо|отлично|супер|благодар/gi;
const URGENT = /urgent|asap|immediately|right now|срочно|немедленно/i;
const RETURN_WORDS = /\breturn|refund|возврат|вернуть/i;
const POLICY_WORDS = /polic|terms|window|conditions|услови|правил/i;
const STATUS_WORDS = /where\b|status|track|deliver|где|статус|доставк/i;
const OUT_OF_SCOPE = /shell|command|delete (all|every)|rm -rf|ignore (all )?previous|команд|удали/i;

const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;

const ARGS = z.record(z.string(), z.unknown());
const ORDER_INPUT = z.looseObject({ orderId: z.string() });
/** modelView's failure shape (lib/actions/model-view.ts), as stored in the tool part's output. */
const TOOL_ERROR = z.looseObject({
  ok: z.literal(false),
  error: z.looseObject({ status: z.string(), code: z.string() }),
});

type Facts = {
  userText: string;
  tools: Set<string>;
  rejectedTools: boolean;
  orderIds: string[];
  action: StaffActionRow | null;
  /** The latest write the policy refused (nothing was proposed). */
  refusedWrite: { tool: WriteTool; args: Record<string, unknown>; code: string } | null;
};

function writeTool(name: string): WriteTool | null {
  const tool = getTool(name);
  return tool?.access === "write" ? tool : null;
}

function factsOf(messages: TranscriptMessage[], actions: StaffActionRow[]): Facts {
  const userText = messages
    .filter((m) => m.role === "user")
    .flatMap((m) => m.items)
    .map((i) => (i.kind === "text" ? i.text : ""))
    .join("\n");
  const tools = new Set<string>();
  const orderIds: string[] = [];
  let rejectedTools = false;
  let refusedWrite: Facts["refusedWrite"] = null;
  for (const item of messages.flatMap((m) => m.items)) {
    if (item.kind !== "tool") continue;
    tools.add(item.tool);
    const orderId = ORDER_INPUT.safeParse(item.input).data?.orderId;
    if (orderId && !orderIds.includes(orderId)) orderIds.push(orderId);
    const error = TOOL_ERROR.safeParse(item.output).data?.error;
    // A tool the registry does not know, or arguments it refused: the model tried something.
    if (!getTool(item.tool) || item.state === "output-error" || error?.status === "rejected") {
      rejectedTools = true;
    }
    const write = writeTool(item.tool);
    if (write && error) {
      refusedWrite = { tool: write, args: ARGS.safeParse(item.input).data ?? {}, code: error.code };
    }
  }
  return {
    userText,
    tools,
    rejectedTools,
    orderIds,
    action: actions.at(-1) ?? null,
    refusedWrite,
  };
}

function categoryOf(f: Facts): Triage["category"] {
  const acted =
    (f.action && writeTool(f.action.tool)) ??
    [...f.tools].map(writeTool).find((t) => t !== null) ??
    null;
  if (acted) return acted.triage.category;
  if (f.tools.has("get_return_policy") || has(f.userText, POLICY_WORDS)) return "return_policy";
  if (f.tools.has("get_order_status") || has(f.userText, STATUS_WORDS)) return "order_status";
  if (f.rejectedTools || has(f.userText, OUT_OF_SCOPE)) return "out_of_scope";
  if (has(f.userText, RETURN_WORDS)) return "return_request";
  return "general";
}

function sentimentOf(text: string): Triage["sentiment"] {
  const neg = count(text, NEGATIVE);
  const pos = count(text, POSITIVE);
  return neg > pos ? "negative" : pos > neg ? "positive" : "neutral";
}

function summaryAndNext(c: Triage["category"], f: Facts): { summary: string; nextStep: string } {
  const orders = f.orderIds.length ? ` ${f.orderIds.join(", ")}` : "";
  const acting = f.action ? writeTool(f.action.tool) : null;
  if (f.action && acting) {
    const story = acting.triage.story({
      args: ARGS.safeParse(f.action.arguments).data ?? { orderId: f.action.targetId },
      plan: f.action.plan,
      result: f.action.result,
      status: f.action.status,
      errorCode: f.action.errorCode,
    });
    return { summary: story.summary, nextStep: story.next };
  }
  if (f.refusedWrite) {
    const { tool, args, code } = f.refusedWrite;
    const story = tool.triage.story({
      args,
      plan: null,
      result: null,
      status: "refused",
      errorCode: code,
    });
    return { summary: story.summary, nextStep: story.next };
  }
  switch (c) {
    case "return_request":
      return {
        summary: "Customer wants a return but has not named an order and a reason yet.",
        nextStep: "Nothing to do unless the customer comes back with the order number and reason.",
      };
    case "return_policy":
      return {
        summary: `Customer asked about the return policy${orders ? ` for order${orders}` : ""}.`,
        nextStep: "No action needed; follow up only if the customer decides to return.",
      };
    case "order_status":
      return {
        summary: `Customer asked where order${orders || "s"} ${orders ? "is" : "are"}; the assistant answered from the order data.`,
        nextStep: "No action needed.",
      };
    case "out_of_scope":
      return {
        summary: "Customer asked for something outside support's tools; it was refused.",
        nextStep: "No action needed; review only if it looks like abuse.",
      };
    default:
      return {
        summary: f.userText.trim()
          ? "Customer chatted without a specific request."
          : "The customer has not written anything yet.",
        nextStep: "No action needed.",
      };
  }
}

export function triageByRules(messages: TranscriptMessage[], actions: StaffActionRow[]): Triage {
  const f = factsOf(messages, actions);
  const category = categoryOf(f);
  const sentiment = sentimentOf(f.userText);
  // Urgency is about staff: something broke, or an upset customer whose return is still open.
  const open = !f.action || f.action.status === "pending" || f.action.status === "executing";
  const urgency: Triage["urgency"] =
    f.action?.status === "failed" || has(f.userText, URGENT)
      ? "high"
      : f.action?.status === "stale" ||
          (sentiment === "negative" && category === "return_request" && open)
        ? "medium"
        : "low";
  const { summary, nextStep } = summaryAndNext(category, f);
  return TRIAGE.parse({
    category,
    sentiment,
    urgency,
    summary: clip(summary, SUMMARY_MAX),
    nextStep: clip(nextStep.replace(/ {2,}/g, " "), NEXT_STEP_MAX),
  });
}
