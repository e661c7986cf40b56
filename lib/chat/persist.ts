/**
 * Reading and writing a chat's stored UI messages. Parts are our own JSON, but they are
 * still checked on the way out of the database: a corrupt row must not reach the model.
 */
import "server-only";
import type { LanguageModelUsage } from "ai";
import { z } from "zod";
import { appendMessages, type ChatRow, listMessages, type MessageRow } from "@/db/queries/chats";
import { listEffectsForActions } from "@/db/queries/effects";
import { writeTransaction } from "@/db/queries/tx";
import { getActionsForUser } from "@/lib/actions";
import { type ModelCallRecord, recordModelCall } from "@/lib/ai/model-calls";
import { type ChatUIMessage, STORED_PART_KEYS, type StoredChatMessage } from "@/lib/api/parts";
import type { EffectKind } from "@/lib/effects/kinds";
import { log } from "@/lib/log";
import { own } from "@/lib/own";
import { conversationLanguage, type Locale } from "@/lib/text/language";
import { withoutNul } from "@/lib/text/nul";
import type { EffectState } from "@/lib/tools/view";
import { presentAction } from "./present";

const PART = z.looseObject({ type: z.string() });
/** The fields the server itself reads from our data parts; the rest is carried as stored. */
const DATA_PARTS: Record<string, z.ZodType> = STORED_PART_KEYS;

/**
 * Stored JSON is checked on the way out: a part that does not parse (a corrupt or foreign row)
 * is dropped and logged rather than failing every read and every turn of the chat.
 */
export function rowToUIMessage(row: MessageRow): StoredChatMessage {
  const raw = Array.isArray(row.parts) ? row.parts : [];
  const parts = raw.filter((p) => {
    const base = PART.safeParse(p);
    const ok = base.success && (own(DATA_PARTS, base.data.type)?.safeParse(p).success ?? true);
    if (!ok) log().warn({ messageId: row.id }, "dropped a malformed part of a stored message");
    return ok;
  }) as ChatUIMessage["parts"];
  return { id: row.id, role: row.role, parts };
}

/**
 * For the model, the summary and the AI SDK: a staff reply is an assistant message whose
 * `data-staff` part becomes an app note naming its author (lib/ai/history.ts).
 */
export function forAssistant(m: StoredChatMessage): ChatUIMessage {
  return m.role === "staff" ? { ...m, role: "assistant" } : (m as ChatUIMessage);
}

/** The customer's texts, oldest first (for the conversation's language). */
export function userTexts(messages: StoredChatMessage[]): string[] {
  return messages
    .filter((m) => m.role === "user")
    .map((m) => m.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join(" "));
}

/** The messages the model sees this turn: everything after the folded summary. */
export async function loadTurnHistory(chat: ChatRow): Promise<ChatUIMessage[]> {
  const rows = await listMessages({ chatId: chat.id, afterSeq: chat.summarizedThrough });
  const messages = rows.map((r) => forAssistant(rowToUIMessage(r)));
  return await withCurrentActions(messages, chat.userId, conversationLanguage(userTexts(messages)));
}

/**
 * A stored confirm card is a snapshot from proposal time; swap in the action's current state
 * (executed, expired, ...) so the UI after a reload and the model's next turn both see the truth.
 */
export async function withCurrentActions<M extends StoredChatMessage>(
  messages: M[],
  userId: string,
  lang: Locale,
): Promise<M[]> {
  const ids = messages.flatMap((m) =>
    m.parts.flatMap((p) => (p.type === "data-pending-action" ? [p.data.id] : [])),
  );
  const current = await getActionsForUser({ actionIds: ids, userId });
  // The executed ones' effects (a refund's progress), in one query, for their outcome notes.
  const executed = [...current.values()].filter((a) => a.status === "executed").map((a) => a.id);
  const effects = new Map<string, EffectState[]>();
  for (const e of await listEffectsForActions({ actionIds: executed })) {
    const list = effects.get(e.actionId) ?? [];
    list.push({ kind: e.kind as EffectKind, status: e.status, lastErrorCode: e.lastErrorCode });
    effects.set(e.actionId, list);
  }
  return messages.map((m) => ({
    ...m,
    parts: m.parts.map((p) => {
      if (p.type !== "data-pending-action") return p;
      const now = current.get(p.data.id);
      return now ? { ...p, data: presentAction(now, lang, effects.get(now.id)) } : p;
    }),
  }));
}

/**
 * The most a stored assistant message may hold, as JSON characters. A turn's text, its tool calls
 * and their arguments are bounded by the output guard (lib/chat/output-guard.ts) to well below it.
 */
export const MAX_STORED_MESSAGE_CHARS = 256_000;

export function titleFrom(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > 60 ? `${oneLine.slice(0, 59)}…` : oneLine;
}

export async function saveTurn({
  chat,
  userMessage,
  assistantMessage,
  model,
  promptVersion,
  usage,
  modelCall,
  claim,
  within,
}: {
  chat: ChatRow;
  userMessage: ChatUIMessage;
  assistantMessage: ChatUIMessage;
  model: string;
  promptVersion: string;
  usage: LanguageModelUsage | null;
  /** The turn's measurements, stored with its messages (one transaction). */
  modelCall?: ModelCallRecord;
  /**
   * Runs first, inside the same transaction: false saves nothing (the turn lost its lease). The
   * turn passes the end of its lease here, so the check, the messages and the lease's end are one
   * commit.
   */
  claim?: () => Promise<boolean>;
  /** Runs last, inside the same transaction (the turn's handoff, lib/chat/handoff). */
  within?: () => Promise<void>;
}): Promise<boolean> {
  const firstText = userMessage.parts.find((p) => p.type === "text");
  // The model's part of the turn: no NUL is stored (lib/text/nul.ts), and no message above the
  // bound (the output guard keeps a turn well below it; this is the last line).
  const assistantParts = withoutNul(assistantMessage.parts);
  const size = JSON.stringify(assistantParts).length;
  if (size > MAX_STORED_MESSAGE_CHARS)
    throw new Error(`an assistant message of ${size} characters is above the stored bound`);
  return await writeTransaction(async () => {
    if (claim && !(await claim())) return false;
    await appendMessages({
      chatId: chat.id,
      title: firstText && "text" in firstText ? titleFrom(firstText.text) : null,
      items: [
        { id: userMessage.id, role: "user", parts: userMessage.parts },
        {
          id: assistantMessage.id,
          role: "assistant",
          // Streaming states are a transport detail; stored text is final.
          parts: assistantParts,
          model,
          promptVersion,
          usage,
        },
      ],
    });
    if (modelCall) await recordModelCall({ ...modelCall, messageId: assistantMessage.id });
    if (within) await within();
    return true;
  });
}
