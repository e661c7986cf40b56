/**
 * Staff reads of one chat for the audit's transcript view and triage. Unlike the customer's
 * queries (chats.ts), these take no user id: the caller has already checked the staff role,
 * and staff may read any chat. Nothing here changes a chat except saving its triage.
 */
import "server-only";
import { asc, eq } from "drizzle-orm";
import { first, getDb } from "../index";
import { chats, messages, pendingActions } from "../schema";

export type StaffChatRow = typeof chats.$inferSelect;
export type StaffMessageRow = typeof messages.$inferSelect;
export type StaffActionRow = typeof pendingActions.$inferSelect;

/** Longer chats are cut to their first messages in the staff view; the note says so. */
export const TRANSCRIPT_MESSAGE_LIMIT = 500;

export async function getChatForStaff({ id }: { id: string }): Promise<StaffChatRow | null> {
  return getDb().select().from(chats).where(eq(chats.id, id)).then(first);
}

/** Oldest first (seq order) via the (chat_id, seq) unique index. */
export async function listMessagesForStaff({
  chatId,
}: {
  chatId: string;
}): Promise<StaffMessageRow[]> {
  return getDb()
    .select()
    .from(messages)
    .where(eq(messages.chatId, chatId))
    .orderBy(asc(messages.seq))
    .limit(TRANSCRIPT_MESSAGE_LIMIT);
}

/** Every pending action of the chat in the order they were proposed. */
export async function listActionsForStaff({
  chatId,
}: {
  chatId: string;
}): Promise<StaffActionRow[]> {
  return getDb()
    .select()
    .from(pendingActions)
    .where(eq(pendingActions.chatId, chatId))
    .orderBy(asc(pendingActions.createdAt), asc(pendingActions.id));
}

export async function getActionForStaff({ id }: { id: string }): Promise<StaffActionRow | null> {
  return getDb().select().from(pendingActions).where(eq(pendingActions.id, id)).then(first);
}

/** Stores the triage JSON (already validated by lib/api/triage.ts). */
export async function saveChatTriage({
  chatId,
  triage,
}: {
  chatId: string;
  triage: unknown;
}): Promise<boolean> {
  const res = await getDb()
    .update(chats)
    .set({ triage })
    .where(eq(chats.id, chatId))
    .returning({ id: chats.id });
  return res.length === 1;
}
