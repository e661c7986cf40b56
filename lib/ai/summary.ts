/**
 * Folding older chat messages into a short summary the model gets inside <conversation_summary>.
 *
 * Input: the stored UI messages (AI SDK UIMessage, as the chat persists them), not ModelMessages,
 * because only they still carry what the app did: the confirm card (`data-pending-action`) and
 * its outcome (`data-action-outcome`) are dropped or flattened by convertToModelMessages. Any
 * `{ role, parts }` list fits; every part is parsed here (it is stored JSON, so untrusted).
 *
 * offline: computed, deterministic (renderSummary's labelled lines, which the offline model reads
 * back). openai: the model writes it from a transcript, with summary-v1's instruction.
 */

import type { LanguageModelV3 } from "@ai-sdk/provider";
import { generateText } from "ai";
import { z } from "zod";
import { ActionOutcomePartSchema, PendingActionPartSchema } from "@/lib/api/parts";
import { own } from "@/lib/own";
import { aiTelemetry } from "@/lib/telemetry/tracer";
import { getTool } from "@/lib/tools/registry";
import { measuredCall } from "./model-calls";
import { getChatModel, MODEL_CALL_SETTINGS } from "./models";
import { modelInfo } from "./models/info";
import {
  detectLanguage,
  EMPTY_FACTS,
  extractOrderNumbers,
  type OpenReturn,
  openReturnRequest,
  parseSummary,
  renderSummary,
} from "./models/offline";
import { SUMMARY_PROMPT } from "./prompts";

export type SummaryMessage = { role: string; parts: readonly unknown[] };

const MAX_ORDERS = 10;
const MAX_ACTIONS = 6;
const MAX_CHARS = 1500;
const SUMMARY_TIMEOUT_MS = 30_000;

const TEXT = z.object({ type: z.literal("text"), text: z.string() });
const TOOL = z.object({
  type: z.string().regex(/^tool-/),
  input: z.unknown().optional(),
  output: z.unknown().optional(),
});
const ORDER_INPUT = z.object({ orderId: z.string(), reason: z.string().optional() });
const EXISTING = z.object({
  ok: z.literal(true),
  data: z.looseObject({ createdNow: z.literal(false) }),
});
const REFUSED = z.object({ ok: z.literal(false), error: z.object({ code: z.string() }) });
// Stored parts may predate fields the card needs now; the summary reads only these.
const PENDING = z.object({
  type: z.literal("data-pending-action"),
  data: PendingActionPartSchema.pick({ id: true, tool: true, status: true })
    .extend({ arguments: ORDER_INPUT })
    .loose(),
});
const OUTCOME = z.object({
  type: z.literal("data-action-outcome"),
  data: ActionOutcomePartSchema,
});

/** The id a write's result names (requestId, cancellationId, ...): the first `...Id` but the order's. */
function effectId(result: Record<string, unknown>): string | null {
  for (const [key, value] of Object.entries(result)) {
    if (key !== "orderId" && key.endsWith("Id") && typeof value === "string") return value;
  }
  return null;
}

const isWriteTool = (name: string) => getTool(name)?.access === "write";

const OUTCOME_WORDS: Record<string, string> = {
  executed: "confirmed",
  cancelled: "cancelled",
  expired: "expired",
  stale: "not done (order changed)",
  superseded: "replaced by a newer proposal",
  failed: "failed",
};

const textOf = (m: SummaryMessage) =>
  m.parts.flatMap((p) => {
    const t = TEXT.safeParse(p);
    return t.success ? [t.data.text] : [];
  });

/** The deterministic summary: orders, return actions and how they ended, the open thread. */
export function offlineSummary({
  messages,
  previousSummary,
}: {
  messages: readonly SummaryMessage[];
  previousSummary?: string | null;
}): string {
  const prev = previousSummary ? parseSummary(previousSummary) : EMPTY_FACTS;
  let orders = [...prev.orders];
  const mention = (id: string) => {
    orders = [...orders.filter((o) => o !== id), id];
  };
  // Keyed by action id (or order, for answers without an action) so an outcome joins its proposal.
  const actions = new Map<string, { label: string; steps: string[] }>();
  const step = (key: string, label: string, s: string) => {
    const a = actions.get(key) ?? { label, steps: [] };
    if (a.steps.at(-1) !== s) a.steps.push(s);
    actions.set(key, a);
  };
  let threadTexts: string[] = [];
  let proposed = false;
  let question: string | null = null;
  let lang = prev.lang;

  for (const m of messages) {
    const texts = textOf(m);
    if (m.role === "user") {
      for (const t of texts) {
        threadTexts.push(t);
        for (const id of extractOrderNumbers(t).ids) mention(id);
        lang = detectLanguage(t) ?? lang;
      }
      question = null;
      continue;
    }
    for (const part of m.parts) {
      const tool = TOOL.safeParse(part);
      if (tool.success) {
        const input = ORDER_INPUT.safeParse(tool.data.input);
        if (!input.success) continue;
        mention(input.data.orderId);
        const name = tool.data.type.slice("tool-".length);
        if (!isWriteTool(name)) continue;
        const label = `${name} ${input.data.orderId} ${input.data.reason ?? ""}`.trim();
        const existing = EXISTING.safeParse(tool.data.output);
        const refused = REFUSED.safeParse(tool.data.output);
        if (existing.success) step(label, label, `already done (${effectId(existing.data.data)})`);
        if (refused.success) step(label, label, `refused (${refused.data.error.code})`);
        proposed = true;
        threadTexts = [];
      }
      const pending = PENDING.safeParse(part);
      if (pending.success) {
        const { id, tool: name, arguments: args, status } = pending.data.data;
        const label = `${name} ${args.orderId} ${args.reason ?? ""}`.trim();
        step(id, label, "proposed");
        const known = own(OUTCOME_WORDS, status);
        if (known) step(id, label, known);
      }
      const outcome = OUTCOME.safeParse(part);
      if (outcome.success) {
        const { actionId, status, result } = outcome.data.data;
        const word = own(OUTCOME_WORDS, status) ?? status;
        const detail = result
          ? ` (${effectId(result)}${result.createdNow ? "" : ", already existed"})`
          : "";
        const order = typeof result?.orderId === "string" ? result.orderId : "earlier proposal";
        step(actionId, order, `${word}${detail}`);
      }
    }
    const asked = texts
      .join(" ")
      .match(/[^.!?]*\?/g)
      ?.at(-1)
      ?.trim();
    question = asked ? asked.slice(0, 200) : null;
  }

  const open: OpenReturn | null =
    openReturnRequest(threadTexts) ?? (proposed || threadTexts.length > 0 ? null : prev.open);
  const newActions = [...actions.values()].map((a) => `${a.label}: ${a.steps.join(", ")}`);
  return renderSummary({
    lang,
    orders: orders.slice(-MAX_ORDERS),
    actions: [...prev.actions, ...newActions].slice(-MAX_ACTIONS),
    open,
    question,
  });
}

/** A plain transcript for a hosted model; angle brackets escaped so the data cannot close tags. */
function transcript(messages: readonly SummaryMessage[]): string {
  const clip = (v: unknown) => JSON.stringify(v ?? null).slice(0, 400);
  return messages
    .flatMap((m) =>
      m.parts.flatMap((p) => {
        const who =
          m.role === "user" ? "Customer" : m.role === "staff" ? "Staff member" : "Assistant";
        const t = TEXT.safeParse(p);
        if (t.success) return [`${who}: ${t.data.text}`];
        const tool = TOOL.safeParse(p);
        if (tool.success)
          return [
            `Tool ${tool.data.type.slice(5)} ${clip(tool.data.input)} -> ${clip(tool.data.output)}`,
          ];
        const pending = PENDING.safeParse(p);
        if (pending.success)
          return [
            `App: confirmation card ${clip(pending.data.data.arguments)}, status ${pending.data.data.status}`,
          ];
        const outcome = OUTCOME.safeParse(p);
        if (outcome.success)
          return [`App: action ${outcome.data.data.status} ${clip(outcome.data.data.result)}`];
        return [];
      }),
    )
    .join("\n")
    .replace(/</g, "‹")
    .replace(/>/g, "›");
}

/**
 * The summary to store on the chat. Throws when the hosted model fails (no retries, see
 * MODEL_CALL_SETTINGS): the caller should keep the previous summary and try again later.
 */
export async function summarizeConversation({
  messages,
  previousSummary,
  provider,
  model,
  chat,
}: {
  messages: readonly SummaryMessage[];
  previousSummary?: string | null;
  provider: "offline" | "openai";
  /** The hosted model; default the configured one (getChatModel). */
  model?: LanguageModelV3;
  /** Whose chat is folded, for the stored model-call row. */
  chat?: { chatId: string; userId: string };
}): Promise<string> {
  if (provider === "offline") return offlineSummary({ messages, previousSummary });
  const previous = previousSummary?.trim()
    ? `<previous_summary>\n${previousSummary.replace(/</g, "‹").replace(/>/g, "›")}\n</previous_summary>\n\n`
    : "";
  const target = model ?? getChatModel().model;
  const { text } = await measuredCall(
    {
      kind: "summary",
      provider: modelInfo().provider,
      model: target.modelId,
      promptVersion: SUMMARY_PROMPT.version,
      chatId: chat?.chatId,
      userId: chat?.userId,
    },
    () =>
      generateText({
        model: target,
        system: SUMMARY_PROMPT.text,
        prompt: `${previous}<transcript>\n${transcript(messages)}\n</transcript>`,
        maxRetries: MODEL_CALL_SETTINGS.maxRetries,
        experimental_telemetry: aiTelemetry("summary"),
        // Runs after the answer is out, but a hung provider must not leave work dangling forever.
        abortSignal: AbortSignal.timeout(SUMMARY_TIMEOUT_MS),
      }),
  );
  return text.trim().slice(0, MAX_CHARS);
}
