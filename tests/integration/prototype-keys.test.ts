/**
 * A model that calls a tool named like an Object.prototype member
 * (`__proto__`, `constructor`, ...) gets the same treatment as any unknown tool: nothing runs,
 * the call is audited `rejected` / `unknown_tool`, the turn still answers, and the chat stays
 * readable (GET /api/chats/{id} 200) with the stored turn in it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { toolNote } from "@/lib/chat-client/messages";
import { resetRateLimits } from "@/lib/http/rate-limit";
import { Customer } from "../helpers/chat";
import { actionsIn, auditFor } from "../helpers/inspect";
import { useLoopbackModel } from "../helpers/loopback-model";
import type { OpenAIServer } from "../helpers/openai-server";
import { PROTOTYPE_TOOL_NAMES } from "../system/hostile/cases-model";

describe("tools named like Object.prototype members", () => {
  let server: OpenAIServer;
  let stopModel: () => Promise<void>;
  let anna: Customer;
  beforeAll(async () => {
    ({ server, stop: stopModel } = await useLoopbackModel());
    anna = await Customer.signIn("anna@example.com");
  });
  afterAll(async () => {
    await stopModel();
  });
  beforeEach(async () => {
    server.requests.length = 0;
    await resetRateLimits();
  });

  it.each(PROTOTYPE_TOOL_NAMES)("%s is rejected and audited as an unknown tool", async (name) => {
    server.enqueue(
      { type: "tool-calls", calls: [{ name, arguments: { orderId: "7718" } }] },
      { type: "text", text: "I can't do that." },
    );
    const chat = await anna.newChat();
    const t = await anna.say(chat, "Do something odd with order 7718");
    expect(t.errors).toEqual([]);
    expect(t.text).toBe("I can't do that.");
    expect(await auditFor(chat)).toEqual([
      expect.objectContaining({ tool: name, status: "rejected", errorCode: "unknown_tool" }),
    ]);
    expect(await actionsIn(chat)).toEqual([]);

    // The chat still reads, now and on every later load, with its turn stored.
    const view = await anna.getChat(chat);
    expect(view.status).toBe(200);
    const body = (await view.json()) as { messages: { role: string; parts: unknown[] }[] };
    expect(body.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    // What the chat page renders for each stored part: no note for a tool that is not ours.
    for (const part of body.messages[1]!.parts)
      expect(() => toolNote(part as Parameters<typeof toolNote>[0])).not.toThrow();
    // The next turn gets the stored history (with the rejected call) and answers.
    server.enqueue({ type: "text", text: "Anything else?" });
    expect((await anna.say(chat, "Hello again")).errors).toEqual([]);
  });
});
