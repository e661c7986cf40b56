/**
 * The chat's turn lease has an owner. Only the turn holding it renews or
 * releases it; a turn that lost it saves nothing; and a turn has an overall deadline (well
 * inside its lease), after which it ends with the model-failure error part, so two turns of one
 * chat never overlap.
 */

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { chats } from "@/db/schema";
import { beginTurn, endTurn } from "@/lib/chat/service";
import { resetEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { resetRateLimits } from "@/lib/http/rate-limit";
import { userIdOf } from "@/tests/helpers/db";
import { Customer } from "../helpers/chat";
import { useTestDatabase } from "../helpers/db";
import { messageCount } from "../helpers/inspect";
import { type OpenAIServer, startOpenAIServer } from "../helpers/openai-server";
import { readTurn } from "../helpers/stream";

/** What a lease that ran out looks like (its holder died, or outlived it). */
const lapse = (chatId: string) =>
  getDb()
    .update(chats)
    .set({ turnLockedUntil: new Date(Date.now() - 1000) })
    .where(eq(chats.id, chatId));

const refusal = async (fn: () => unknown) => {
  try {
    await fn();
  } catch (e) {
    return e instanceof AppError ? e.code : String(e);
  }
  return null;
};

const ENV = {
  MODEL_PROVIDER: "openai",
  OPENAI_API_KEY: "test-key",
  OPENAI_MODEL: "loopback-1",
  CHAT_TURN_DEADLINE_SECONDS: "3",
};

describe("the turn lease has an owner and a turn has a deadline", () => {
  let server: OpenAIServer;
  let anna: Customer;
  let annaId: string;
  beforeAll(async () => {
    server = await startOpenAIServer();
    await useTestDatabase({ env: { ...ENV, OPENAI_BASE_URL: server.baseURL } });
    anna = await Customer.signIn("anna@example.com");
    annaId = await userIdOf("anna@example.com");
  });
  afterAll(async () => {
    await server.close();
    for (const k of [...Object.keys(ENV), "OPENAI_BASE_URL"]) delete process.env[k];
    resetEnv();
  });
  beforeEach(async () => {
    server.requests.length = 0;
    await resetRateLimits();
  });

  it("ends only the holder's own lease, and says whether the turn still held it", async () => {
    const chatId = await anna.newChat();
    const first = await beginTurn({ chatId, userId: annaId });
    expect(await refusal(async () => await beginTurn({ chatId, userId: annaId }))).toBe(
      "turn_in_progress",
    );
    await lapse(chatId);
    const second = await beginTurn({ chatId, userId: annaId });
    // The first turn finishing late must not free the second's lease, and learns it lost it.
    expect(await endTurn(first)).toBe(false);
    expect(await refusal(async () => await beginTurn({ chatId, userId: annaId }))).toBe(
      "turn_in_progress",
    );
    expect(await endTurn(second)).toBe(true);
    const third = await beginTurn({ chatId, userId: annaId });
    await endTurn(third);
  });

  it("a turn whose lease was taken over saves nothing and leaves the new holder's lease alone", async () => {
    const chatId = await anna.newChat();
    server.enqueue(
      { type: "text", text: "A slow answer.", delayMs: 200 },
      { type: "text", text: "A quick answer." },
    );
    const slow = await anna.post(chatId, { text: "Where is order 8041?" });
    expect(slow.status).toBe(200);
    // The slow turn is talking to the model (and so takes the first script) ...
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    // ... when its lease runs out and another message takes the chat.
    await lapse(chatId);
    const quick = await anna.post(chatId, { text: "And 7718?" });
    expect(quick.status).toBe(200);
    await readTurn(quick);
    await readTurn(slow);
    // Only the turn that held the chat when it finished is in the history.
    const view = (await (await anna.getChat(chatId)).json()) as {
      messages: { role: string; parts: { type: string; text?: string }[] }[];
    };
    expect(view.messages.map((m) => m.parts.find((p) => p.type === "text")?.text)).toEqual([
      "And 7718?",
      "A quick answer.",
    ]);
    // Both turns are over: the chat takes the next message.
    server.enqueue({ type: "text", text: "Yes?" });
    expect((await anna.say(chatId, "Hello")).errors).toEqual([]);
  });

  it("a turn past its deadline ends with the model-failure error part and frees the chat", async () => {
    const chatId = await anna.newChat();
    server.enqueue({ type: "hang", text: "Let me think" });
    const t = await anna.say(chatId, "Where is order 8041?");
    expect(t.errors).toEqual([expect.stringMatching(/unavailable right now/)]);
    expect(await messageCount(chatId)).toBe(0);
    server.enqueue({ type: "text", text: "On its way." });
    expect((await anna.say(chatId, "Where is order 8041?")).errors).toEqual([]);
    expect(await messageCount(chatId)).toBe(2);
  });
});
