/**
 * The customer's edit of a pending proposal, and its line in the transcript: the new
 * card follows an app message saying the proposal was edited, so the conversation (and the model's
 * next turn) shows what the customer now confirms. The old card reads `superseded`.
 */
import "server-only";
import { appendMessages } from "@/db/queries/chats";
import { reviseAction } from "@/lib/actions/revise";
import type { PendingActionPart } from "@/lib/api/parts";
import { revisionNote } from "./app-text";
import { presentAction, storedChatLanguage } from "./present";

export async function revise({
  actionId,
  userId,
  changes,
}: {
  actionId: string;
  userId: string;
  changes: Record<string, unknown>;
}): Promise<{ pendingAction: PendingActionPart }> {
  const { action } = await reviseAction({ actionId, userId, changes });
  const lang = await storedChatLanguage(action.chatId);
  const pendingAction = presentAction(action, lang);
  const id = `revision-${action.id}`;
  await appendMessages({
    chatId: action.chatId,
    items: [
      {
        id,
        role: "assistant",
        parts: [
          { type: "text", text: revisionNote(lang, action.revision) },
          { type: "data-pending-action", id: action.id, data: pendingAction },
        ],
      },
    ],
  });
  return { pendingAction };
}
