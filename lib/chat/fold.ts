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
import { forAssistant, rowToUIMessage } from "./persist";

/** Unsummarized messages that trigger a fold. */
export const FOLD_AFTER = 24;
/** Messages kept verbatim after a fold. */
export const KEEP_RECENT = 8;

export async function foldLongChat({
  chatId,
  userId,
  summarizedThrough,
}: {
  chatId: string;
  userId: string;
  /**
   * The chat's summarizedThrough as the caller read it. Folds only raise it, so counting from it
   * can only over-count: at or below the threshold there is nothing to fold, and neither the chat
   * nor its messages need reading (the answer after almost every turn).
   */
  summarizedThrough: number;
}): Promise<boolean> {
  // Everything is inside the try: the turn calls this without awaiting it, so a read failing
  // here (a database restarting, or dropped under a test) would otherwise be an unhandled
  // rejection, which stops a Node process.
  try {
    if ((await countMessages({ chatId, afterSeq: summarizedThrough })) <= FOLD_AFTER) return false;
    const chat = await getChatForUser({ id: chatId, userId });
    if (!chat) return false;
    const rows = await listMessages({ chatId, afterSeq: chat.summarizedThrough });
    if (rows.length <= FOLD_AFTER) return false;
    const older = rows.slice(0, rows.length - KEEP_RECENT);
    const through = older.at(-1)!.seq;
    const summary = await summarizeConversation({
      messages: older.map((r) => forAssistant(rowToUIMessage(r))),
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
