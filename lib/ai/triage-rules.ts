/**
 * Triage without a model (the offline provider): computed from what the chat shows: the tools
 * that ran, the actions and how they ended, and keywords in the customer's own messages
 * (English and Russian, like the offline chat model). Deterministic: the same transcript always
 * gives the same triage, so staff and tests can rely on it.
 */
import { z } from "zod";
import type { StaffActionRow } from "@/db/queries/audit-transcript";
import type { TranscriptMessage } from "@/lib/audit/transcript";
import { getTool } from "@/lib/tools/registry";
import { clip, NEXT_STEP_MAX, SUMMARY_MAX, TRIAGE, type Triage } from "./triage-schema";

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

const ACTION_ARGS = z.looseObject({ orderId: z.string(), reason: z.string().optional() });
const RESULT = z.looseObject({ requestId: z.string(), createdNow: z.boolean().optional() });
const PLAN = z.looseObject({ refund: z.looseObject({ destination: z.string() }) });
const ORDER_INPUT = z.looseObject({ orderId: z.string() });
/** modelView's failure shape (lib/tools/model-view.ts), as stored in the tool part's output. */
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
  failedReturnCode: string | null;
};

function factsOf(messages: TranscriptMessage[], actions: StaffActionRow[]): Facts {
  const userText = messages
    .filter((m) => m.role === "user")
    .flatMap((m) => m.items)
    .map((i) => (i.kind === "text" ? i.text : ""))
    .join("\n");
  const tools = new Set<string>();
  const orderIds: string[] = [];
  let rejectedTools = false;
  let failedReturnCode: string | null = null;
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
    if (item.tool === "create_return_request" && error) failedReturnCode = error.code;
  }
  return {
    userText,
    tools,
    rejectedTools,
    orderIds,
    action: actions.at(-1) ?? null,
    failedReturnCode,
  };
}

function categoryOf(f: Facts): Triage["category"] {
  if (f.action || f.tools.has("create_return_request")) return "return_request";
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

/** What happened to the chat's latest action, for the summary and the next step. */
function actionStory(a: StaffActionRow): { happened: string; next: string } {
  const args = ACTION_ARGS.safeParse(a.arguments).data;
  const order = args?.orderId ?? a.targetId;
  const result = RESULT.safeParse(a.result).data;
  const destination =
    PLAN.safeParse(a.plan).data?.refund.destination ?? "the original payment method";
  switch (a.status) {
    case "executed":
      return {
        happened:
          result?.createdNow === false
            ? "it already had a return request"
            : "the return request was created",
        next: `Process return ${result?.requestId ?? ""} for order ${order} and refund it to ${destination}.`,
      };
    case "pending":
    case "executing":
      return {
        happened: "a proposal awaits the customer's confirmation",
        next: `None yet: the customer has to confirm or cancel the return of order ${order}.`,
      };
    case "failed":
      return {
        happened: `the return failed (${a.errorCode ?? "error"}) and nothing was changed`,
        next: `Investigate the failed return of order ${order} and contact the customer.`,
      };
    case "stale":
      return {
        happened: "the order changed before confirmation, so nothing was created",
        next: `Check order ${order}, which changed after the proposal, and help the customer ask again.`,
      };
    default:
      return {
        happened: `the proposal was ${a.status}`,
        next: "No action needed unless the customer asks again.",
      };
  }
}

function summaryAndNext(c: Triage["category"], f: Facts): { summary: string; nextStep: string } {
  const orders = f.orderIds.length ? ` ${f.orderIds.join(", ")}` : "";
  if (c === "return_request" && f.action) {
    const args = ACTION_ARGS.safeParse(f.action.arguments).data;
    const reason = args?.reason ? ` (${args.reason})` : "";
    const story = actionStory(f.action);
    return {
      summary: `Customer asked to return order ${args?.orderId ?? f.action.targetId}${reason}; ${story.happened}.`,
      nextStep: story.next,
    };
  }
  switch (c) {
    case "return_request":
      return f.failedReturnCode
        ? {
            summary: `Customer asked for a return of order${orders}; it was not possible (${f.failedReturnCode}).`,
            nextStep: "Reply only if the customer disputes the refusal; the policy decided.",
          }
        : {
            summary: "Customer wants a return but has not named an order and a reason yet.",
            nextStep:
              "Nothing to do unless the customer comes back with the order number and reason.",
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
