/**
 * Chat-level operations the route handlers call: start a chat, read one with its current
 * pending action, guard a new message, and record a decision's outcome in the history.
 */
import "server-only";
import {
  acquireTurnLock,
  appendMessages,
  type ChatRow,
  createChat,
  getChatForUser,
  lastUserMessage,
  listChatsForUser,
  listMessages,
  messageExists,
  releaseTurnLock,
} from "@/db/queries/chats";
import {
  getPendingActionForChat,
  type PendingActionDto,
  supersedePendingForUser,
} from "@/lib/actions";
import type { ChatSummary } from "@/lib/api/schemas";
import { AppError } from "@/lib/errors";
import { outcomeText } from "./app-text";
import { detectLanguage } from "./language";
import { rowToUIMessage, withCurrentActions } from "./persist";
import type { ActionOutcome, ChatUIMessage } from "./types";

export type { ChatSummary };

const summary = (c: ChatRow): ChatSummary => ({
  id: c.id,
  createdAt: c.createdAt.toISOString(),
  title: c.title,
});

/** A new chat supersedes whatever was pending in the user's other chats (the seed's /new). */
export function startChat({ userId }: { userId: string }): ChatSummary {
  const chat = createChat({ userId });
  supersedePendingForUser({ userId, exceptChatId: chat.id });
  return summary(chat);
}

export function listChats({ userId }: { userId: string }): ChatSummary[] {
  return listChatsForUser({ userId }).map(summary);
}

export function requireChat({ chatId, userId }: { chatId: string; userId: string }): ChatRow {
  const chat = getChatForUser({ id: chatId, userId });
  if (!chat) throw new AppError("not_found", "No such chat.");
  return chat;
}

/**
 * The chat as the UI needs it. Each stored confirm card carries the action's CURRENT state,
 * so a reload shows a decided card as decided.
 */
export function getChatView({ chatId, userId }: { chatId: string; userId: string }): {
  chat: ChatSummary;
  messages: ChatUIMessage[];
  pendingAction: PendingActionDto | null;
} {
  const chat = requireChat({ chatId, userId });
  const pendingAction = getPendingActionForChat({ chatId, userId });
  const messages = withCurrentActions(listMessages({ chatId }).map(rowToUIMessage), userId);
  return { chat: summary(chat), messages, pendingAction };
}

/** A turn that outlives this is presumed dead (crashed process) and its lease lapses. */
const TURN_LEASE_MS = 3 * 60_000;

/**
 * Starts a turn: one at a time per chat (a lease in the database, so two simultaneous messages
 * cannot both pass), and nothing may be said while a decision is pending (409 with the action's
 * id). The caller must call endTurn() when the turn is over, whatever happened.
 */
export function beginTurn({ chatId, userId }: { chatId: string; userId: string }): void {
  if (!acquireTurnLock({ chatId, leaseMs: TURN_LEASE_MS })) {
    throw new AppError(
      "turn_in_progress",
      "The assistant is still answering your previous message.",
    );
  }
  const pending = getPendingActionForChat({ chatId, userId });
  if (pending) {
    releaseTurnLock({ chatId });
    throw new AppError("action_pending", "Confirm or cancel the proposed action first.", {
      details: { actionId: pending.id },
    });
  }
}

export function endTurn({ chatId }: { chatId: string }): void {
  releaseTurnLock({ chatId });
}

/**
 * Appends the outcome of a decision to the action's chat, in the customer's language; once per
 * action, however many times a stale tab asks again. The message id is derived from the action,
 * so the primary key settles a race between two processes.
 */
export function recordOutcome({
  action,
  outcome,
}: {
  action: PendingActionDto;
  outcome: ActionOutcome;
}): void {
  const id = `outcome-${action.id}`;
  if (messageExists({ id })) return;
  const last = lastUserMessage({ chatId: action.chatId });
  const lastText = last ? rowToUIMessage(last).parts.find((p) => p.type === "text") : undefined;
  const lang = detectLanguage(lastText?.text ?? "");
  try {
    appendMessages({
      chatId: action.chatId,
      items: [
        {
          id,
          role: "assistant",
          parts: [
            { type: "data-action-outcome", id, data: outcome },
            { type: "text", text: outcomeText(outcome, action.arguments.orderId, lang) },
          ],
        },
      ],
    });
  } catch (err) {
    if ((err as { code?: string }).code !== "SQLITE_CONSTRAINT_PRIMARYKEY") throw err;
  }
}
