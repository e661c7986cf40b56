import { DefaultChatTransport, type UIMessage } from "ai";

/** The text of a message's text parts, joined: what the customer typed. */
export function messageText(message: UIMessage | undefined): string {
  if (!message) return "";
  return message.parts
    .flatMap((p) => (p.type === "text" ? [p.text] : []))
    .join("")
    .trim();
}

/**
 * The request body for one turn. The browser is untrusted: it sends the new text only, never the
 * history (the server loads that from its database) nor tool names or arguments.
 * On Retry (regenerate) the last message is the same user message, so the same text goes again.
 */
export function turnRequestBody(messages: UIMessage[]): { text: string } {
  const lastUser = messages.findLast((m) => m.role === "user");
  return { text: messageText(lastUser) };
}

/**
 * A transport for one chat. `onFailure` sees the headers of a non-2xx answer, because useChat
 * only passes on the body and a 429's Retry-After lives in a header.
 */
export function createChatTransport<M extends UIMessage>(
  chatId: string,
  onFailure: (response: Response) => void,
): DefaultChatTransport<M> {
  return new DefaultChatTransport<M>({
    api: `/api/chats/${encodeURIComponent(chatId)}/messages`,
    credentials: "same-origin",
    prepareSendMessagesRequest: ({ messages }) => ({ body: turnRequestBody(messages) }),
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      if (!response.ok) onFailure(response);
      return response;
    },
  });
}
