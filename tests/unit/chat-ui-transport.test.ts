import type { UIMessage } from "ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createChatTransport, turnRequestBody } from "@/lib/chat-client/transport";

const user = (id: string, text: string): UIMessage => ({
  id,
  role: "user",
  parts: [{ type: "text", text }],
});
const assistant = (id: string, text: string): UIMessage => ({
  id,
  role: "assistant",
  parts: [{ type: "step-start" }, { type: "text", text }],
});

describe("the chat transport sends the new text only", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("builds the body from the last user message, never the history", () => {
    const history = [user("u1", "Hello!"), assistant("a1", "Hi"), user("u2", " Where is 8041? ")];
    expect(turnRequestBody(history)).toEqual({ text: "Where is 8041?" });
    // Retry after a partial answer: the same user text goes again.
    expect(turnRequestBody([...history, assistant("a2", "Let me")])).toEqual({
      text: "Where is 8041?",
    });
  });

  it("POSTs exactly {text} to /api/chats/{id}/messages and reports a failed response's headers", async () => {
    const calls: { url: string; init: RequestInit | undefined }[] = [];
    // The network is the boundary here: record what would go over the wire.
    vi.stubGlobal("fetch", async (url: string, init?: RequestInit) => {
      calls.push({ url, init });
      return new Response(
        JSON.stringify({ error: { code: "rate_limited", message: "Slow down" } }),
        {
          status: 429,
          headers: { "content-type": "application/json", "retry-after": "12" },
        },
      );
    });
    const failures: string[] = [];
    const transport = createChatTransport("chat 1", (r) =>
      failures.push(r.headers.get("retry-after") ?? ""),
    );
    await expect(
      transport.sendMessages({
        chatId: "chat 1",
        messages: [user("u1", "Hello!"), assistant("a1", "Hi"), user("u2", "Where is 8041?")],
        trigger: "submit-message",
        messageId: undefined,
        abortSignal: undefined,
      }),
    ).rejects.toThrow(/rate_limited/);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe("/api/chats/chat%201/messages");
    expect(calls[0]?.init?.method).toBe("POST");
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual({ text: "Where is 8041?" });
    expect(failures).toEqual(["12"]);
  });
});
