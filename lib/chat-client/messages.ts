/**
 * Reading the chat's UIMessage parts: which proposal is still open, what happened to each one,
 * and the quiet one-line notes for tool activity.
 */
import { getToolName, isToolUIPart, type UIMessage } from "ai";
import { conversationLanguage, type Locale } from "@/lib/text/language";
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

/**
 * What a tool part says: the wording is the catalogue's (conversation.toolNote), by tool name.
 * `state` is the call's outcome, not the attempt: a write the policy refused (the return window
 * had passed) is `refused`, never "prepared"; a call that went wrong is `failed`.
 */
export type ToolNote = {
  tool: string;
  orderId: string | null;
  state: "running" | "done" | "refused" | "failed";
};

function orderIdOf(input: unknown): string | null {
  if (typeof input !== "object" || input === null || !("orderId" in input)) return null;
  const id = (input as { orderId: unknown }).orderId;
  return typeof id === "string" && /^\d{1,12}$/.test(id) ? id : null;
}

/** The catalogue's arguments for a note: a tool it does not know gets an empty text (no line). */
export function toolNoteValues(note: ToolNote) {
  return { tool: note.tool, order: note.orderId ?? "", hasOrder: note.orderId ? "yes" : "no" };
}

/**
 * How a finished call ended, from what the model was told (lib/actions/model-view.ts): `ok: false`
 * with `business_error` is the policy's or the store's refusal (nothing proposed), any other
 * `ok: false` a failure; the rest answered or proposed.
 */
function callOutcome(output: unknown): "done" | "refused" | "failed" {
  if (typeof output !== "object" || output === null || !("ok" in output)) return "done";
  if (output.ok !== false) return "done";
  const error = "error" in output ? output.error : null;
  const status =
    typeof error === "object" && error !== null && "status" in error ? error.status : null;
  return status === "business_error" ? "refused" : "failed";
}

/** A one-line note for a tool part, or null for parts that are not tool calls. */
export function toolNote(part: Part): ToolNote | null {
  if (!isToolUIPart(part)) return null;
  const tool = getToolName(part);
  // The note's text is an ICU select on the tool name, and ICU looks its options up on a plain
  // object: a model-chosen name like "constructor" would reach Object.prototype. No note for those.
  if (tool in Object.prototype) return null;
  const orderId = orderIdOf("input" in part ? part.input : undefined);
  switch (part.state) {
    case "output-available":
      return { tool, orderId, state: callOutcome(part.output) };
    case "output-error":
    case "output-denied":
      return { tool, orderId, state: "failed" };
    default:
      return { tool, orderId, state: "running" };
  }
}

/** The language of the customer's latest message with letters in this chat; "en" when there is none. */
export function chatLanguage(messages: Pick<UIMessage, "role" | "parts">[]): Locale {
  return conversationLanguage(
    messages
      .filter((m) => m.role === "user")
      .map((m) =>
        m.parts.map((p) => (p.type === "text" ? (p as { text: string }).text : "")).join(" "),
      ),
  );
}
