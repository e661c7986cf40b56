/**
 * Reading and writing a chat's stored UI messages. Parts are our own JSON, but they are
 * still checked on the way out of the database: a corrupt row must not reach the model.
 */
import "server-only";
import type { LanguageModelUsage } from "ai";
import { z } from "zod";
import { appendMessages, type ChatRow, listMessages, type MessageRow } from "@/db/queries/chats";
import { writeTransaction } from "@/db/queries/tx";
import { getActionsForUser } from "@/lib/actions";
import { type ModelCallRecord, recordModelCall } from "@/lib/ai/model-calls";
import type { ChatUIMessage } from "./types";

const PART = z.looseObject({ type: z.string() });
/** The fields the server itself reads from our data parts; the rest is carried as stored. */
const DATA_PARTS: Record<string, z.ZodType> = {
  "data-pending-action": z.looseObject({ data: z.looseObject({ id: z.string() }) }),
  "data-action-outcome": z.looseObject({
    data: z.looseObject({ actionId: z.string(), status: z.string() }),
  }),
};

/**
 * Stored JSON is checked on the way out: a part that does not parse (a corrupt or foreign row)
 * is dropped and logged rather than failing every read and every turn of the chat.
 */
export function rowToUIMessage(row: MessageRow): ChatUIMessage {
  const raw = Array.isArray(row.parts) ? row.parts : [];
  const parts = raw.filter((p) => {
    const base = PART.safeParse(p);
    const ok = base.success && (DATA_PARTS[base.data.type]?.safeParse(p).success ?? true);
    if (!ok) console.error(`[returns-desk] dropped a malformed part of message ${row.id}`);
    return ok;
  }) as ChatUIMessage["parts"];
  return { id: row.id, role: row.role, parts };
}

/** The messages the model sees this turn: everything after the folded summary. */
export function loadTurnHistory(chat: ChatRow): ChatUIMessage[] {
  const rows = listMessages({ chatId: chat.id, afterSeq: chat.summarizedThrough });
  return withCurrentActions(rows.map(rowToUIMessage), chat.userId);
}

/**
 * A stored confirm card is a snapshot from proposal time; swap in the action's current state
 * (executed, expired, ...) so the UI after a reload and the model's next turn both see the truth.
 */
export function withCurrentActions(messages: ChatUIMessage[], userId: string): ChatUIMessage[] {
  const ids = messages.flatMap((m) =>
    m.parts.flatMap((p) => (p.type === "data-pending-action" ? [p.data.id] : [])),
  );
  const current = getActionsForUser({ actionIds: ids, userId });
  return messages.map((m) => ({
    ...m,
    parts: m.parts.map((p) => {
      if (p.type !== "data-pending-action") return p;
      const now = current.get(p.data.id);
      return now ? { ...p, data: now } : p;
    }),
  }));
}

export function titleFrom(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > 60 ? `${oneLine.slice(0, 59)}…` : oneLine;
}

export function saveTurn({
  chat,
  userMessage,
  assistantMessage,
  model,
  promptVersion,
  usage,
  modelCall,
}: {
  chat: ChatRow;
  userMessage: ChatUIMessage;
  assistantMessage: ChatUIMessage;
  model: string;
  promptVersion: string;
  usage: LanguageModelUsage | null;
  /** The turn's measurements, stored with its messages (one transaction). */
  modelCall?: ModelCallRecord;
}): void {
  const firstText = userMessage.parts.find((p) => p.type === "text");
  writeTransaction(() => {
    appendMessages({
      chatId: chat.id,
      title: firstText && "text" in firstText ? titleFrom(firstText.text) : null,
      items: [
        { id: userMessage.id, role: "user", parts: userMessage.parts },
        {
          id: assistantMessage.id,
          role: "assistant",
          // Streaming states are a transport detail; stored text is final.
          parts: assistantMessage.parts,
          model,
          promptVersion,
          usage,
        },
      ],
    });
    if (modelCall) recordModelCall({ ...modelCall, messageId: assistantMessage.id });
  });
}
