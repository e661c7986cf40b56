/**
 * The chat and action endpoints of docs/api.md, through the real route handlers: ownership,
 * refusals with their exact status and code, and that a refused message leaves no trace.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as sendRoute } from "@/app/api/chats/[id]/messages/route";
import { GET as getChatRoute } from "@/app/api/chats/[id]/route";
import { POST as createChatRoute } from "@/app/api/chats/route";
import { getDb, one } from "@/db";
import { chats, messages, pendingActions } from "@/db/schema";
import { resetEnv } from "@/lib/env";
import { resetRateLimits } from "@/lib/http/rate-limit";
import { Customer } from "../helpers/chat";
import { useTestDatabase } from "../helpers/db";
import { call } from "../helpers/http";
import { messageCount, returnsFor } from "../helpers/inspect";
import { pendingActionPart } from "../helpers/stream";

const chatCount = async () => (await getDb().select({ id: chats.id }).from(chats)).length;

const RETURN_7718 = "Create a return request for order 7718. The item arrived damaged.";

describe("chat and action API", () => {
  let anna: Customer;
  let boris: Customer;
  beforeAll(async () => {
    await useTestDatabase();
    anna = await Customer.signIn("anna@example.com");
    boris = await Customer.signIn("boris@example.com");
  });

  it("creates, lists (own only, newest first) and reads chats", async () => {
    const first = await anna.newChat();
    const second = await anna.newChat();
    await boris.newChat();
    const list = await (await anna.listChats()).json();
    expect(list.chats.map((c: { id: string }) => c.id).slice(0, 2)).toEqual([second, first]);
    expect(
      list.chats.every((c: { createdAt: string }) => !Number.isNaN(Date.parse(c.createdAt))),
    ).toBe(true);
    const view = await (await anna.getChat(first)).json();
    expect(view).toEqual({
      chat: { id: first, createdAt: expect.any(String), title: null, handoff: null },
      messages: [],
      pendingAction: null,
    });
  });

  it("names the chat after its first message", async () => {
    const chat = await anna.newChat();
    await anna.say(chat, "Where is order 8041?");
    const list = await (await anna.listChats()).json();
    expect(list.chats.find((c: { id: string }) => c.id === chat).title).toBe(
      "Where is order 8041?",
    );
  });

  it("answers 401 without a session and 404 for someone else's chat", async () => {
    const chat = await anna.newChat();
    const anon = await call(getChatRoute, `/api/chats/${chat}`, { id: chat });
    expect(anon.status).toBe(401);
    expect((await anon.json()).error.code).toBe("unauthenticated");
    expect((await call(createChatRoute, "/api/chats", {}, { method: "POST" })).status).toBe(401);
    const foreign = await boris.getChat(chat);
    expect(foreign.status).toBe(404);
    const missing = await boris.getChat("no-such-chat");
    expect(await foreign.json()).toEqual(await missing.json());
    const post = await boris.post(chat, { text: "Where is order 7718?" });
    expect(post.status).toBe(404);
    expect(await messageCount(chat)).toBe(0);
  });

  it.each([
    [
      "bad JSON",
      { raw: "{not json", headers: { "content-type": "application/json" } },
      400,
      "invalid_request",
    ],
    ["no text", { body: {} }, 400, "invalid_request"],
    ["text of the wrong type", { body: { text: 42 } }, 400, "invalid_request"],
    ["blank text", { body: { text: "  \n\t " } }, 400, "invalid_request"],
    ["text over 2000 characters", { body: { text: "a".repeat(2001) } }, 413, "message_too_long"],
    [
      "a form post",
      { raw: "text=hi", headers: { "content-type": "application/x-www-form-urlencoded" } },
      415,
      "unsupported_media_type",
    ],
  ])("refuses %s with %i %s and stores nothing", async (_name, opts, status, code) => {
    const chat = await anna.newChat();
    const res = await call(
      sendRoute,
      `/api/chats/${chat}/messages`,
      { id: chat },
      {
        cookie: anna.cookie,
        method: "POST",
        ...opts,
      },
    );
    expect(res.status).toBe(status);
    expect((await res.json()).error.code).toBe(code);
    expect(await messageCount(chat)).toBe(0);
  });

  it("counts 2000 characters, not UTF-16 units: 2000 emoji are accepted", async () => {
    const chat = await anna.newChat();
    const turn = await anna.say(chat, "🙂".repeat(2000));
    expect(turn.status).toBe(200);
    expect(await messageCount(chat)).toBe(2);
  });

  it("a corrupt stored part is dropped, not a 500 for the whole chat", async () => {
    const chat = await anna.newChat();
    await anna.say(chat, "Hello!");
    await getDb()
      .insert(messages)
      .values({
        id: "corrupt-1",
        chatId: chat,
        seq: 3,
        role: "assistant",
        parts: [
          { type: "data-pending-action", data: { nope: true } },
          { type: "text", text: "still here" },
        ],
      });
    const res = await anna.getChat(chat);
    expect(res.status).toBe(200);
    expect((await res.json()).messages.at(-1).parts).toEqual([
      { type: "text", text: "still here" },
    ]);
    expect((await anna.say(chat, "Where is order 8041?")).errors).toEqual([]);
  });

  it("rate-limits a user's messages with 429 and Retry-After", async () => {
    process.env.CHAT_RATE_LIMIT_PER_MINUTE = "3";
    resetEnv();
    await resetRateLimits();
    try {
      const chat = await boris.newChat();
      for (let i = 0; i < 3; i++) expect((await boris.say(chat, "Hello!")).status).toBe(200);
      const before = await messageCount(chat);
      const limited = await boris.post(chat, { text: "Hello!" });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await limited.json()).error.code).toBe("rate_limited");
      expect(await messageCount(chat)).toBe(before);
    } finally {
      delete process.env.CHAT_RATE_LIMIT_PER_MINUTE;
      resetEnv();
      await resetRateLimits();
    }
  });

  // Creating chats is not rate limited by mistake: 150 in a row are all created.
  it("rate-limits a user's new chats like messages, with 429 and Retry-After", async () => {
    process.env.CHAT_RATE_LIMIT_PER_MINUTE = "3";
    resetEnv();
    await resetRateLimits();
    try {
      let last = "";
      for (let i = 0; i < 3; i++) last = await boris.newChat();
      const chatsBefore = await chatCount();
      const limited = await call(
        createChatRoute,
        "/api/chats",
        {},
        {
          cookie: boris.cookie,
          method: "POST",
        },
      );
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await limited.json()).error.code).toBe("rate_limited");
      expect(await chatCount()).toBe(chatsBefore);
      // A bucket of its own: boris may still send messages; other customers may start chats.
      expect((await boris.say(last, "Hello!")).status).toBe(200);
      expect(await anna.newChat()).toEqual(expect.any(String));
    } finally {
      delete process.env.CHAT_RATE_LIMIT_PER_MINUTE;
      resetEnv();
      await resetRateLimits();
    }
  });

  it("a new chat supersedes what was pending in the other chats and unlocks them", async () => {
    const chat = await anna.newChat();
    const card = pendingActionPart((await anna.say(chat, RETURN_7718)).message)!;
    await anna.newChat();
    const res = await anna.confirm(card.data.id);
    expect(res.status).toBe(409);
    expect((await res.json()).error).toMatchObject({ code: "superseded" });
    expect((await anna.getChat(chat).then((r) => r.json())).pendingAction).toBeNull();
    expect((await anna.say(chat, "Where is order 8041?")).status).toBe(200);
    expect(await returnsFor("7718")).toEqual([]);
  });

  it("another customer's action reads as missing, for confirm and cancel", async () => {
    const chat = await anna.newChat();
    const card = pendingActionPart((await anna.say(chat, RETURN_7718)).message)!;
    for (const res of [await boris.confirm(card.data.id), await boris.cancel(card.data.id)]) {
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe("not_found");
    }
    expect((await anna.cancel(card.data.id)).status).toBe(200);
  });

  it("an expired offer answers 410, notes it in the chat, and unlocks the composer", async () => {
    const chat = await anna.newChat();
    const card = pendingActionPart((await anna.say(chat, RETURN_7718)).message)!;
    await getDb()
      .update(pendingActions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(pendingActions.id, card.data.id));
    const res = await anna.confirm(card.data.id);
    expect(res.status).toBe(410);
    expect((await res.json()).error.code).toBe("expired");
    const view = await (await anna.getChat(chat)).json();
    expect(view.pendingAction).toBeNull();
    expect(view.messages.at(-1).parts[0]).toMatchObject({
      type: "data-action-outcome",
      data: { actionId: card.data.id, status: "expired" },
    });
    expect(
      view.messages[1].parts.find((p: { type: string }) => p.type === "data-pending-action").data
        .status,
    ).toBe("expired");
    expect((await anna.confirm(card.data.id)).status).toBe(410);
    const again = await (await anna.getChat(chat)).json();
    expect(again.messages).toHaveLength(view.messages.length);
    expect(await returnsFor("7718")).toEqual([]);
  });

  it("folds a long chat into a deterministic summary with the offline model", async () => {
    await resetRateLimits();
    const chat = await boris.newChat();
    for (let i = 0; i < 13; i++) await boris.say(chat, i % 2 ? "Where is order 2255?" : "Hello!");
    // The fold runs after the answer is out (it must not hold the stream): wait for it.
    const read = () => getDb().select().from(chats).where(eq(chats.id, chat)).then(one);
    let row = await read();
    for (let i = 0; i < 200 && row.summarizedThrough === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      row = await read();
    }
    expect(row.summarizedThrough).toBe(18);
    expect(row.summary).toContain("2255");
    await resetRateLimits();
    const next = await boris.say(chat, "And where is it now?");
    expect(next.errors).toEqual([]);
    expect(await messageCount(chat)).toBe(28);
  });

  it("confirm ignores a body that names other arguments", async () => {
    const chat = await anna.newChat();
    const card = pendingActionPart((await anna.say(chat, RETURN_7718)).message)!;
    const res = await anna.confirm(card.data.id, {
      orderId: "9307",
      reason: "other",
      comment: "free money",
    });
    expect(res.status).toBe(200);
    expect((await res.json()).result).toMatchObject({
      orderId: "7718",
      reason: "damaged",
      comment: null,
    });
    expect(await returnsFor("9307")).toEqual([]);
    expect((await returnsFor("7718"))[0]?.id).toMatch(/^RR-[2-9A-Z]{8}$/);
  });
});
