/**
 * The customer's message in a handed-off chat: no model, no tools. The message is stored with the
 * app's short note that a person will reply, and the note is the whole answer, sent as the same
 * UI message stream a turn sends so the chat page needs no second code path.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { createUIMessageStream, createUIMessageStreamResponse } from "ai";
import type { ChatRow } from "@/db/queries/chats";
import { getOpenHandoff } from "@/db/queries/handoffs";
import type { ChatUIMessage } from "@/lib/api/parts";
import { loadTurnHistory, userTexts } from "@/lib/chat/persist";
import { conversationLanguage } from "@/lib/text/language";
import { storeMessageInHandoff } from "./index";

/**
 * Null when the chat is not handed off: then nothing was stored, the lease is still the caller's,
 * and the assistant answers as usual.
 */
export async function answerInHandoff({
  chat,
  text,
  endTurn,
}: {
  chat: ChatRow;
  text: string;
  endTurn: () => Promise<boolean>;
}): Promise<Response | null> {
  // Almost every turn is in a chat no person has taken over: one indexed read says so, before
  // any history is loaded or any write transaction is opened (the turn loads the history itself).
  // A takeover that lands after this read is the same as one landing just after the check inside
  // the transaction below: this turn is answered by the model, the next message by the person.
  if (!(await getOpenHandoff({ chatId: chat.id }))) return null;
  const userMessage: ChatUIMessage = {
    id: randomUUID(),
    // Stryker disable next-line StringLiteral: storeMessageInHandoff stores the message as the user's itself and reads only its id and parts
    role: "user",
    parts: [{ type: "text", text }],
  };
  const history = await loadTurnHistory(chat);
  const lang = conversationLanguage([...userTexts(history), text]);
  const note = await storeMessageInHandoff({ chatId: chat.id, userMessage, lang, claim: endTurn });
  if (!note) return null;
  const stream = createUIMessageStream<ChatUIMessage>({
    // Stryker disable next-line ArrowFunction: the start chunk below names the message id, which the stream uses instead of a generated one
    generateId: () => note.id,
    execute: ({ writer }) => {
      writer.write({ type: "start", messageId: note.id });
      for (const part of note.parts) {
        if (part.type === "text") {
          const id = randomUUID();
          writer.write({ type: "text-start", id });
          writer.write({ type: "text-delta", id, delta: part.text });
          writer.write({ type: "text-end", id });
        } else if (part.type === "data-handoff") {
          writer.write(part);
        }
      }
      writer.write({ type: "finish", finishReason: "stop" });
    },
  });
  return createUIMessageStreamResponse({ stream });
}
