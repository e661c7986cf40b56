/**
 * Reading the chat's UIMessage parts: which proposal is still open, what happened to each one,
 * and the quiet one-line notes for tool activity.
 */
import { getToolName, isToolUIPart, type UIMessage } from "ai";
import { createTranslator } from "next-intl";
import en from "@/messages/en.json";
import ru from "@/messages/ru.json";
import type { Lang } from "./card-text";
import {
  type ActionOutcomeData,
  ActionOutcomeSchema,
  type PendingAction,
  PendingActionSchema,
} from "./schemas";

type Part = UIMessage["parts"][number];

/** The proposal carried by a `data-pending-action` part, if the part is one and parses. */
export function pendingActionOf(part: Part): PendingAction | null {
  if (part.type !== "data-pending-action") return null;
  const parsed = PendingActionSchema.safeParse((part as { data?: unknown }).data);
  return parsed.success ? parsed.data : null;
}

function outcomeOf(part: Part): ActionOutcomeData | null {
  if (part.type !== "data-action-outcome") return null;
  const parsed = ActionOutcomeSchema.safeParse((part as { data?: unknown }).data);
  return parsed.success ? parsed.data : null;
}

/** Outcomes the server appended after confirm/cancel, by action id (they carry the request id). */
export function collectOutcomes(messages: UIMessage[]): Map<string, ActionOutcomeData> {
  const out = new Map<string, ActionOutcomeData>();
  for (const m of messages)
    for (const p of m.parts) {
      const o = outcomeOf(p);
      if (o) out.set(o.actionId, o);
    }
  return out;
}

/** Every proposal shown in the messages, by id (the last copy of an id wins). */
export function proposalsIn(messages: UIMessage[]): Map<string, PendingAction> {
  const out = new Map<string, PendingAction>();
  for (const m of messages)
    for (const p of m.parts) {
      const a = pendingActionOf(p);
      if (a) out.set(a.id, a);
    }
  return out;
}

/**
 * The proposal that blocks the composer: stored as pending and not yet decided here (a click or
 * the countdown reaching zero). `serverPending` is GET /api/chats/{id}'s pendingAction, which
 * counts even when no message carries it.
 */
export function findOpenAction(
  messages: UIMessage[],
  serverPending: PendingAction | null,
  decidedHere: ReadonlySet<string>,
): PendingAction | null {
  const all = proposalsIn(messages);
  if (serverPending && !all.has(serverPending.id)) all.set(serverPending.id, serverPending);
  let open: PendingAction | null = null;
  for (const a of all.values()) if (a.status === "pending" && !decidedHere.has(a.id)) open = a;
  return open;
}

const CATALOGUES = { en, ru };

export type ToolNote = { text: string; failed: boolean; running: boolean };

function orderIdOf(input: unknown): string | null {
  if (typeof input !== "object" || input === null || !("orderId" in input)) return null;
  const id = (input as { orderId: unknown }).orderId;
  return typeof id === "string" && /^\d{1,12}$/.test(id) ? id : null;
}

/** A one-line note for a tool part, or null for parts that are not tool calls or not ours. */
export function toolNote(part: Part, lang: Lang = "en"): ToolNote | null {
  if (!isToolUIPart(part)) return null;
  // The wording is catalogue text (toolActivity: one select branch per tool); a tool without a
  // branch gets an empty text, and so no note at all.
  const t = createTranslator({
    locale: lang,
    messages: CATALOGUES[lang],
    namespace: "toolActivity",
  });
  const values = {
    tool: getToolName(part),
    orderId: orderIdOf("input" in part ? part.input : undefined) ?? "none",
  };
  const note = (text: string, failed: boolean, running: boolean) =>
    text.trim() ? { text, failed, running } : null;
  switch (part.state) {
    case "output-available":
      return note(t("done", values), false, false);
    case "output-error":
    case "output-denied":
      return note(t("failed", values), true, false);
    default:
      return note(t("running", values), false, true);
  }
}
