/**
 * A store page's visitor who is not signed in there (the widget booted without a token): POST
 * /api/embed/guest through the real route handler starts a guest's partitioned session, and its
 * chat turns are offered the return policy alone. Checked where it matters, at the model's wire:
 * the loopback OpenAI server records the tools each request advertised, and a model that calls an
 * order tool anyway reaches nothing. Then the offline model, as the demo runs it: the policy is
 * answered, an order question is sent to the store's sign-in, and nothing is proposed.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as listChats, POST as newChat } from "@/app/api/chats/route";
import { POST as startGuest } from "@/app/api/embed/guest/route";
import { GET as staffTranscript } from "@/app/api/staff/chats/[id]/route";
import { getDb } from "@/db";
import { auditEvents, session, user } from "@/db/schema";
import { VISITOR_NOTE } from "@/lib/ai/prompts";
import { resetEnv } from "@/lib/env";
import { resetRateLimits } from "@/lib/http/rate-limit";
import { Customer } from "../helpers/chat";
import { useTestDatabase } from "../helpers/db";
import { call, signIn } from "../helpers/http";
import { actionsIn, auditStatuses } from "../helpers/inspect";
import { useLoopbackModel } from "../helpers/loopback-model";
import type { OpenAIServer } from "../helpers/openai-server";

const STORE = "http://127.0.0.1:4100";
const EMBED_ENV = {
  EMBED_JWT_SECRET: "store-secret-store-secret-store-secret-01",
  EMBED_AUDIENCE: "https://desk.example",
  EMBED_ALLOWED_ORIGINS: STORE,
};

const guest = (body: unknown = { origin: STORE }) =>
  call(startGuest, "/api/embed/guest", {}, { body });

/** The header scripts/serve.mjs stamps with the socket's address; set here as it would be. */
const PEER_HEADER = "x-returns-desk-peer";
const MARK = Symbol.for("returns-desk.peer-header");
const g = globalThis as Record<symbol, unknown>;
const guestFrom = (peer: string) =>
  call(
    startGuest,
    "/api/embed/guest",
    {},
    { body: { origin: STORE }, headers: { [PEER_HEADER]: peer } },
  );

async function visitor(): Promise<{ visitor: Customer; id: string }> {
  const res = await guest();
  expect(res.status).toBe(200);
  const body = await res.json();
  const cookie = res.headers.getSetCookie()[0]!.split(";")[0]!;
  return { visitor: Customer.withCookie(cookie), id: body.user.id };
}

type Advertised = { function: { name: string } }[];

describe("a visitor without a token, at the model's wire", () => {
  let server: OpenAIServer;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ server, stop } = await useLoopbackModel(EMBED_ENV));
  });
  afterAll(async () => stop());
  beforeEach(async () => {
    server.requests.length = 0;
    await resetRateLimits();
  });

  it("starts a guest's partitioned session, audited, with no store id and no mailbox", async () => {
    const res = await guest({ origin: STORE, locale: "ru" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.guest).toBe(true);
    const [setCookie] = res.headers.getSetCookie();
    for (const attr of ["HttpOnly", "Secure", "SameSite=None", "Partitioned"])
      expect(setCookie).toContain(attr);
    const [row] = await getDb().select().from(user).where(eq(user.id, body.user.id));
    expect(row).toMatchObject({ guest: true, storeCustomerId: null, role: "customer" });
    expect(row?.email).toMatch(/@visitors\.invalid$/);
    const [event] = await getDb()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tool, "embed:session"), eq(auditEvents.userId, body.user.id)));
    expect(event?.arguments).toEqual({ storeCustomerId: null, origin: STORE, guest: true });
  });

  it("offers the model the return policy alone, and says the visitor is not signed in", async () => {
    const { visitor: v } = await visitor();
    server.enqueue({ type: "text", text: "Returns are accepted within 30 days." });
    const chatId = await v.newChat();
    await v.say(chatId, "Where is order 8041?");
    const sent = server.requests[0]!.body;
    expect(((sent.tools ?? []) as Advertised).map((t) => t.function.name)).toEqual([
      "get_return_policy",
    ]);
    expect(JSON.stringify(sent.messages)).toContain(VISITOR_NOTE);
  });

  it("a signed-in customer is offered every tool (the contrast)", async () => {
    const anna = await Customer.signIn("anna@example.com");
    server.enqueue({ type: "text", text: "Let me see." });
    await anna.say(await anna.newChat(), "Where is order 8041?");
    const names = ((server.requests[0]!.body.tools ?? []) as Advertised).map(
      (t) => t.function.name,
    );
    expect(names).toEqual(
      expect.arrayContaining(["get_order_status", "cancel_order", "request_human"]),
    );
  });

  it("a model that calls an order tool or a write tool anyway reaches nothing", async () => {
    const { visitor: v } = await visitor();
    server.enqueue({
      type: "tool-calls",
      calls: [
        { name: "get_order_status", arguments: { orderId: "8041" } },
        { name: "cancel_order", arguments: { orderId: "3004", reason: "other" } },
      ],
    });
    server.enqueue({ type: "text", text: "Please sign in at the store." });
    const chatId = await v.newChat();
    const t = await v.say(chatId, "cancel 3004 and where is 8041");
    expect(t.status).toBe(200);
    expect(t.text).not.toContain("In transit");
    expect(await actionsIn(chatId)).toEqual([]);
    const statuses = await auditStatuses(chatId);
    // Refused before anything ran: not even looked up.
    expect(statuses).toEqual(["get_order_status:rejected", "cancel_order:rejected"]);
    const codes = (
      await getDb().select().from(auditEvents).where(eq(auditEvents.chatId, chatId))
    ).map((e) => e.errorCode);
    expect(codes).toEqual(["tool_not_offered", "tool_not_offered"]);
  });

  it("ten visitor sessions a minute from one address, then 429; embedding off is 404", async () => {
    for (let i = 0; i < 10; i++) expect((await guest()).status).toBe(200);
    const limited = await guest();
    expect(limited.status).toBe(429);
    expect((await limited.json()).error.code).toBe("rate_limited");
    expect(limited.headers.getSetCookie()).toEqual([]);
    delete process.env.EMBED_ALLOWED_ORIGINS;
    resetEnv();
    try {
      const off = await guest();
      expect(off.status).toBe(404);
      expect((await off.json()).error.code).toBe("embed_disabled");
    } finally {
      process.env.EMBED_ALLOWED_ORIGINS = STORE;
      resetEnv();
    }
  });
});

describe("how many visitor sessions, and for how long", () => {
  beforeAll(async () => {
    await useTestDatabase({ env: EMBED_ENV });
    g[MARK] = PEER_HEADER;
  });
  afterAll(() => {
    delete g[MARK];
  });
  beforeEach(async () => {
    delete process.env.EMBED_GUEST_SESSIONS_PER_MINUTE;
    resetEnv();
    await resetRateLimits();
  });

  it("the limit is per address, not global: the 11th from one address is 429, a second address still gets 200", async () => {
    for (let i = 0; i < 10; i++) expect((await guestFrom("192.0.2.1")).status).toBe(200);
    expect((await guestFrom("192.0.2.1")).status).toBe(429);
    expect((await guestFrom("192.0.2.2")).status).toBe(200);
  });

  it("an IPv6 client is counted by its /64: other addresses in it share its limit, the next /64 does not", async () => {
    for (let i = 1; i <= 10; i++)
      expect((await guestFrom(`2001:db8:1:2::${i.toString(16)}`)).status).toBe(200);
    // The same /64 written another way, and its far end.
    expect((await guestFrom("2001:0db8:0001:0002:ffff:ffff:ffff:fffe")).status).toBe(429);
    expect((await guestFrom("2001:db8:1:2:0:0:0:ff")).status).toBe(429);
    expect((await guestFrom("2001:db8:1:3::1")).status).toBe(200);
  });

  it("all addresses together are capped per minute (EMBED_GUEST_SESSIONS_PER_MINUTE)", async () => {
    process.env.EMBED_GUEST_SESSIONS_PER_MINUTE = "5";
    resetEnv();
    for (let i = 1; i <= 5; i++) expect((await guestFrom(`198.51.100.${i}`)).status).toBe(200);
    const capped = await guestFrom("198.51.100.99");
    expect(capped.status).toBe(429);
    expect((await capped.json()).error.code).toBe("rate_limited");
    expect(capped.headers.getSetCookie()).toEqual([]);
  });

  it("a visitor's origin is shown to staff as its browser's word, not as where the chat was embedded", async () => {
    const res = await guestFrom("203.0.113.9");
    const cookie = res.headers.getSetCookie()[0]!.split(";")[0]!;
    const started = await call(newChat, "/api/chats", {}, { method: "POST", cookie });
    expect(started.status).toBe(201);
    const { chat } = await started.json();
    const seen = await call(
      staffTranscript,
      `/api/staff/chats/${chat.id}`,
      { id: chat.id },
      { cookie: await signIn("staff@example.com") },
    );
    const body = await seen.json();
    expect(body.chat.embedOrigin).toBe(STORE);
    expect(body.chat.embedOriginVouched).toBe(false);
  });

  it("a guest's session lasts at most a day from its start, however often it is used", async () => {
    const started = Date.now();
    const res = await guestFrom("203.0.113.7");
    expect(res.status).toBe(200);
    const setCookie = res.headers.getSetCookie()[0]!;
    expect(setCookie).toContain("Max-Age=86400");
    const cookie = setCookie.split(";")[0]!;
    const userId = (await res.json()).user.id as string;
    const [row] = await getDb().select().from(session).where(eq(session.userId, userId));
    expect(row!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 86_400_000);
    expect(row!.expiresAt.getTime()).toBeGreaterThanOrEqual(started + 86_400_000 - 60_000);
    const chats = () => call(listChats, "/api/chats", {}, { cookie });
    expect((await chats()).status).toBe(200);
    // A day and a minute later, its row extended (as better-auth's refresh would): still over.
    await getDb()
      .update(session)
      .set({
        createdAt: new Date(Date.now() - 86_460_000),
        expiresAt: new Date(Date.now() + 6 * 86_400_000),
      })
      .where(eq(session.userId, userId));
    expect((await chats()).status).toBe(401);
  });
});

describe("a visitor without a token, with the offline model", () => {
  beforeAll(async () => {
    await useTestDatabase({ env: EMBED_ENV });
  });
  beforeEach(async () => resetRateLimits());

  it("gets the return policy, and is sent to the store's sign-in for an order, in both languages", async () => {
    const { visitor: v } = await visitor();
    const chatId = await v.newChat();
    const policy = await v.say(chatId, "What is your return policy?");
    expect(policy.text).toMatch(/30 days/);
    // Told where a return can be asked for, not to name an order here.
    expect(policy.text).toContain("To return something, sign in at the store");
    expect(policy.text).not.toContain("tell me the order number");
    const order = await v.say(chatId, "Where is my order 8041?");
    expect(order.text).toContain("please sign in at the store");
    const cancel = await v.say(chatId, "Please cancel order 3004");
    expect(cancel.text).toContain("please sign in at the store");
    const ru = await v.say(chatId, "Отмените заказ 3004");
    expect(ru.text).toContain("войдите, пожалуйста, на сайте магазина");
    expect(await actionsIn(chatId)).toEqual([]);
    expect(await auditStatuses(chatId)).toEqual(["get_return_policy:success"]);
  });
});
