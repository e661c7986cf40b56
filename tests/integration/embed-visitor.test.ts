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
import { POST as startGuest } from "@/app/api/embed/guest/route";
import { getDb } from "@/db";
import { auditEvents, user } from "@/db/schema";
import { VISITOR_NOTE } from "@/lib/ai/prompts";
import { resetEnv } from "@/lib/env";
import { resetRateLimits } from "@/lib/http/rate-limit";
import { Customer } from "../helpers/chat";
import { useTestDatabase } from "../helpers/db";
import { call } from "../helpers/http";
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
