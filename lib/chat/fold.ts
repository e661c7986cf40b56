/**
 * Long chats: past a threshold, older messages are folded into a summary kept on the chat (the
 * model gets it inside <conversation_summary>), so a turn's prompt stays bounded however long
 * the conversation runs. The newest messages always stay verbatim.
 */
import "server-only";
import { countMessages, getChatForUser, listMessages, saveChatSummary } from "@/db/queries/chats";
import { modelInfo } from "@/lib/ai/models/info";
import { summarizeConversation } from "@/lib/ai/summary";
import { errorFields, log } from "@/lib/log";
import { rowToUIMessage } from "./persist";

/** Unsummarized messages that trigger a fold. */
export const FOLD_AFTER = 24;
/** Messages kept verbatim after a fold. */
export const KEEP_RECENT = 8;

export async function foldLongChat({
  chatId,
  userId,
}: {
  chatId: string;
  userId: string;
}): Promise<boolean> {
  const chat = await getChatForUser({ id: chatId, userId });
  if (!chat) return false;
  // Every turn asks; almost every answer is no. Count first, read the messages only to fold.
  if ((await countMessages({ chatId, afterSeq: chat.summarizedThrough })) <= FOLD_AFTER)
    return false;
  const rows = await listMessages({ chatId, afterSeq: chat.summarizedThrough });
  if (rows.length <= FOLD_AFTER) return false;
  const older = rows.slice(0, rows.length - KEEP_RECENT);
  const through = older.at(-1)!.seq;
  try {
    const summary = await summarizeConversation({
      messages: older.map(rowToUIMessage),
      previousSummary: chat.summary,
      provider: modelInfo().provider,
      chat: { chatId, userId },
    });
    await saveChatSummary({ chatId, summary, throughSeq: through });
    return true;
  } catch (err) {
    // The turn itself succeeded; keep the old summary and try again after the next turn.
    log().error({ err: errorFields(err), chatId }, "summary failed; will retry next turn");
    return false;
  }
}
