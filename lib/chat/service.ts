/**
 * Chat-level operations the route handlers call: start a chat, read one with its current
 * pending action, guard a new message, and record a decision's outcome in the history.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import {
  acquireTurnLock,
  appendMessages,
  type ChatRow,
  createChat,
  getChatForUser,
  listChatsForUser,
  listMessages,
  messageExists,
  releaseTurnLock,
} from "@/db/queries/chats";
import { isUniqueViolation } from "@/db/queries/tx";
import {
  getPendingActionForChat,
  type PendingActionDto,
  supersedePendingForUser,
} from "@/lib/actions";
import type { ActionOutcome, PendingActionPart, StoredChatMessage } from "@/lib/api/parts";
import type { ChatSummary, HandoffView } from "@/lib/api/schemas";
import { getHandoffView } from "@/lib/chat/handoff";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { conversationLanguage } from "@/lib/text/language";
import { approvalNote } from "./app-text";
import { rowToUIMessage, userTexts, withCurrentActions } from "./persist";
import { actionDescription, presentAction, storedChatLanguage } from "./present";

export type { ChatSummary };

const summary = (c: ChatRow): ChatSummary => ({
  id: c.id,
  createdAt: c.createdAt.toISOString(),
  title: c.title,
});

/**
 * A new chat supersedes whatever was pending in the user's other chats (the seed's /new). A chat
 * started in the embedded chat records the store page it was embedded on, for staff.
 */
export async function startChat({
  userId,
  embedOrigin = null,
}: {
  userId: string;
  embedOrigin?: string | null;
}): Promise<ChatSummary> {
  const chat = await createChat({ userId, embedOrigin });
  await supersedePendingForUser({ userId, exceptChatId: chat.id });
  return summary(chat);
}

/**
 * The chat the embedded chat opens: the one asked for (`/new` inside the frame moves to it) if it
 * is the customer's own, else the newest one started on the same store page, else a new one.
 * A chat from our own site is not carried into a store's page.
 */
export async function embeddedChatId({
  userId,
  embedOrigin,
  chatId,
}: {
  userId: string;
  embedOrigin: string | null;
  chatId?: string | undefined;
}): Promise<string> {
  if (chatId) {
    const asked = await getChatForUser({ id: chatId, userId });
    if (asked) return asked.id;
  }
  const newest = (await listChatsForUser({ userId }))[0];
  if (newest && newest.embedOrigin === embedOrigin) return newest.id;
  return (await startChat({ userId, embedOrigin })).id;
}

export async function listChats({ userId }: { userId: string }): Promise<ChatSummary[]> {
  return (await listChatsForUser({ userId })).map(summary);
}

export async function requireChat({
  chatId,
  userId,
}: {
  chatId: string;
  userId: string;
}): Promise<ChatRow> {
  const chat = await getChatForUser({ id: chatId, userId });
  if (!chat) throw new AppError("not_found", "No such chat.");
  return chat;
}

/**
 * The chat as the UI needs it. Each stored confirm card carries the action's CURRENT state,
 * so a reload shows a decided card as decided.
 */
export async function getChatView({ chatId, userId }: { chatId: string; userId: string }): Promise<{
  chat: ChatSummary & { handoff: HandoffView | null };
  messages: StoredChatMessage[];
  pendingAction: PendingActionPart | null;
}> {
  const chat = await requireChat({ chatId, userId });
  const pending = await getPendingActionForChat({ chatId, userId });
  const stored = (await listMessages({ chatId })).map(rowToUIMessage);
  const lang = conversationLanguage(userTexts(stored));
  const messages = await withCurrentActions(stored, userId, lang);
  return {
    chat: { ...summary(chat), handoff: await getHandoffView(chat.id) },
    messages,
    pendingAction: pending ? presentAction(pending, lang) : null,
  };
}

/** The chat's turn lease, held by one turn: only its holder renews or releases it. */
export type TurnLease = { chatId: string; token: string };

/**
 * A turn ends (with the model-failure error part) at its deadline, and its lease runs a minute
 * longer: a live turn is always over before its lease lapses, so two turns of one chat never
 * overlap; a lease outlives its turn only when the process died, and then it lapses by itself.
 */
export function turnDeadlineMs(): number {
  return env().CHAT_TURN_DEADLINE_SECONDS * 1000;
}
const leaseMs = () => turnDeadlineMs() + 60_000;

/**
 * Starts a turn: one at a time per chat (a lease in the database, so two simultaneous messages
 * cannot both pass), and nothing may be said while a decision is pending (409 with the action's
 * id). The caller must call await endTurn() with the returned lease when the turn is over, whatever
 * happened.
 */
export async function beginTurn({
  chatId,
  userId,
}: {
  chatId: string;
  userId: string;
}): Promise<TurnLease> {
  const lease = { chatId, token: randomUUID() };
  if (!(await acquireTurnLock({ ...lease, leaseMs: leaseMs() }))) {
    throw new AppError(
      "turn_in_progress",
      "The assistant is still answering your previous message.",
    );
  }
  const pending = await getPendingActionForChat({ chatId, userId });
  if (pending) {
    await releaseTurnLock(lease);
    throw new AppError("action_pending", "Confirm or cancel the proposed action first.", {
      details: { actionId: pending.id },
    });
  }
  return lease;
}

/**
 * Ends the turn: frees the chat if this lease still holds it. True if it did (the lease was
 * neither lapsed nor taken over), which is what allows a turn to save: the turn calls this inside
 * its saving transaction, so the check and the save are one commit.
 */
export async function endTurn(lease: TurnLease): Promise<boolean> {
  return await releaseTurnLock(lease);
}

/**
 * Appends the outcome of a decision to the action's chat, in the customer's language; once per
 * action, however many times a stale tab asks again. The message id is derived from the action,
 * so the primary key settles a race between two processes.
 */
export async function recordOutcome({
  action,
  outcome,
}: {
  action: PendingActionDto;
  outcome: ActionOutcome;
}): Promise<void> {
  // Waiting for staff is a step, not the end: the final outcome still gets its own note.
  const id =
    outcome.status === "awaiting_approval" ? `approval-${action.id}` : `outcome-${action.id}`;
  if (await messageExists({ id })) return;
  const lang = await storedChatLanguage(action.chatId);
  const { notes } = actionDescription(
    { ...action, result: outcome.result ?? action.result } as PendingActionDto,
    lang,
  );
  const note =
    outcome.status === "awaiting_approval" ||
    outcome.status === "rejected" ||
    (outcome.status === "expired" && action.confirmedAt)
      ? approvalNote(outcome.status, lang, action.rejectReason)
      : outcome.status === "executed" && outcome.result?.createdNow === false
        ? notes.existed
        : notes[outcome.status];
  try {
    await appendMessages({
      chatId: action.chatId,
      items: [
        {
          id,
          role: "assistant",
          parts: [
            { type: "data-action-outcome", id, data: outcome },
            { type: "text", text: note },
          ],
        },
      ],
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
}
