/**
 * Shoppers without an account, through the real route handlers on a fresh database (SQLite, and
 * PostgreSQL in the postgres project): a guest session, a code mailed (as an .eml file under
 * MAIL_DIR, the embedded default) for an order placed without an account, its confirmation, and
 * then that order alone, at the model's wire (the loopback OpenAI server). Each abuse case of the
 * design has its test here, and none of the answers says whether an order exists.
 */
import fs from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as startGuestSession } from "@/app/api/guest/session/route";
import { POST as confirmCode } from "@/app/api/guest/verification/confirm/route";
import { POST as requestCode } from "@/app/api/guest/verification/route";
import { getDb } from "@/db";
import { auditEvents, effects, guestVerifications, messages, orders, user } from "@/db/schema";
import { resetEnv } from "@/lib/env";
import { CODE_MASK } from "@/lib/guests/redact";
import { resetRateLimits } from "@/lib/http/rate-limit";
import { Customer } from "../helpers/chat";
import { call } from "../helpers/http";
import { actionsIn, auditStatuses } from "../helpers/inspect";
import { useLoopbackModel } from "../helpers/loopback-model";
import { parseMail } from "../helpers/mime";
import type { OpenAIServer } from "../helpers/openai-server";
import { pendingActionPart } from "../helpers/stream";

type Advertised = { function: { name: string } }[];

/** The header scripts/serve.mjs stamps with the socket's address; set here as it would be. */
const PEER_HEADER = "x-returns-desk-peer";
const MARK = Symbol.for("returns-desk.peer-header");
const g0 = globalThis as Record<symbol, unknown>;

async function guestSession(peer = "203.0.113.7", locale: "en" | "ru" = "en") {
  const res = await call(
    startGuestSession,
    "/api/guest/session",
    {},
    { body: { locale }, headers: { [PEER_HEADER]: peer } },
  );
  expect(res.status).toBe(200);
  const body = await res.json();
  const cookie = res.headers.getSetCookie()[0]!.split(";")[0]!;
  return { cookie, id: body.user.id as string, customer: Customer.withCookie(cookie) };
}

const ask = (cookie: string, body: unknown, peer = "203.0.113.7") =>
  call(
    requestCode,
    "/api/guest/verification",
    {},
    { cookie, body, headers: { [PEER_HEADER]: peer } },
  );

const confirm = (cookie: string, body: unknown, peer = "203.0.113.7") =>
  call(
    confirmCode,
    "/api/guest/verification/confirm",
    {},
    { cookie, body, headers: { [PEER_HEADER]: peer } },
  );

/** The newest verification row of this guest for this order (to find its mail by its id). */
async function rowOf(userId: string, orderId: string) {
  const rows = await getDb()
    .select()
    .from(guestVerifications)
    .where(and(eq(guestVerifications.userId, userId), eq(guestVerifications.orderId, orderId)));
  return rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0]!;
}

/** The code from the mail the guest got, read where the README says a developer finds it. */
async function codeFromMail(userId: string, orderId: string): Promise<string> {
  const rows = await getDb()
    .select()
    .from(guestVerifications)
    .where(
      and(
        eq(guestVerifications.userId, userId),
        eq(guestVerifications.orderId, orderId),
        eq(guestVerifications.matched, true),
      ),
    );
  const row = rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0]!;
  const file = path.join(process.env.MAIL_DIR!, `rd-${row.id}-mail.guest_code.eml`);
  // The mail is sent without the answer waiting for it: wait for the file, not for a time.
  await vi.waitFor(() => expect(fs.existsSync(file)).toBe(true), { timeout: 10_000 });
  const mail = parseMail(fs.readFileSync(file));
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  expect(code).toBeDefined();
  return code!;
}

const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

describe("guest verification of an order placed without an account", () => {
  let server: OpenAIServer;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ server, stop } = await useLoopbackModel());
    g0[MARK] = PEER_HEADER;
  });
  afterAll(async () => {
    delete g0[MARK];
    await stop();
  });
  beforeEach(async () => {
    server.requests.length = 0;
    await resetRateLimits();
    resetEnv();
  });

  it("the demo seeds 5501 and 5502 by lena@example.org, who has no account", async () => {
    const rows = await getDb().select().from(orders).where(eq(orders.email, "lena@example.org"));
    expect(rows.map((r) => [r.id, r.status]).sort()).toEqual([
      ["5501", "processing"],
      ["5502", "delivered"],
    ]);
    const lena = await getDb().select().from(user).where(eq(user.email, "lena@example.org"));
    expect(lena).toEqual([]);
  });

  it("answers 202 {sent: true} alike for a match, a wrong e-mail and an order that does not exist", async () => {
    const g = await guestSession();
    const answers = [];
    for (const body of [
      { orderId: "5502", email: "lena@example.org" },
      { orderId: "5502", email: "someone@example.org" },
      { orderId: "9999", email: "lena@example.org" },
      { orderId: "7718", email: "anna@example.com" },
    ]) {
      const res = await ask(g.cookie, body);
      answers.push([res.status, await res.text()]);
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual([202, JSON.stringify({ sent: true })]);
    // Only the match was mailed; each request stored a code row, hashed.
    const rows = await getDb()
      .select()
      .from(guestVerifications)
      .where(eq(guestVerifications.userId, g.id));
    expect(rows).toHaveLength(4);
    expect(rows.filter((r) => r.matched).map((r) => r.orderId)).toEqual(["5502"]);
    const code = await codeFromMail(g.id, "5502");
    for (const r of rows) {
      expect(r.codeHash).toMatch(/^[0-9a-f]{64}$/);
      expect(r.codeHash).not.toContain(code);
    }
  });

  it("normalises the e-mail: mixed case, surrounding spaces and a full-width form match", async () => {
    const g = await guestSession();
    expect((await ask(g.cookie, { orderId: " 5502 ", email: "  LENA@Example.ORG " })).status).toBe(
      202,
    );
    expect((await rowOf(g.id, "5502")).matched).toBe(true);
    const code = await codeFromMail(g.id, "5502");
    const ok = await confirm(g.cookie, { orderId: "5502", code });
    expect(ok.status).toBe(200);
    const body = await ok.json();
    expect(body.verified.orderId).toBe("5502");
    expect(new Date(body.verified.until).getTime()).toBeGreaterThan(Date.now() + 29 * 60_000);
    // A full-width address (NFKC folds it) is the same mailbox.
    const h = await guestSession("203.0.113.8");
    await ask(h.cookie, { orderId: "5502", email: "ｌｅｎａ@example.org" }, "203.0.113.8");
    expect((await rowOf(h.id, "5502")).matched).toBe(true);
  });

  it("a wrong code three times kills the code: the right one is then refused", async () => {
    const g = await guestSession();
    await ask(g.cookie, { orderId: "5502", email: "lena@example.org" });
    const code = await codeFromMail(g.id, "5502");
    for (let i = 0; i < 3; i++) {
      const res = await confirm(g.cookie, { orderId: "5502", code: wrongCode(code) });
      expect(res.status).toBe(401);
      expect((await res.json()).error.code).toBe("code_invalid");
    }
    const late = await confirm(g.cookie, { orderId: "5502", code });
    expect(late.status).toBe(410);
    expect((await late.json()).error.code).toBe("code_expired");
  });

  it("a code works once", async () => {
    const g = await guestSession();
    await ask(g.cookie, { orderId: "5501", email: "lena@example.org" });
    const code = await codeFromMail(g.id, "5501");
    expect((await confirm(g.cookie, { orderId: "5501", code })).status).toBe(200);
    const again = await confirm(g.cookie, { orderId: "5501", code });
    expect(again.status).toBe(410);
    expect((await again.json()).error.code).toBe("code_expired");
  });

  it("a code from another session, or for another order, is refused", async () => {
    const a = await guestSession("203.0.113.20");
    const b = await guestSession("203.0.113.21");
    await ask(a.cookie, { orderId: "5502", email: "lena@example.org" }, "203.0.113.20");
    const code = await codeFromMail(a.id, "5502");
    const other = await confirm(b.cookie, { orderId: "5502", code }, "203.0.113.21");
    expect(other.status).toBe(401);
    expect((await other.json()).error.code).toBe("code_invalid");
    const otherOrder = await confirm(a.cookie, { orderId: "5501", code }, "203.0.113.20");
    expect(otherOrder.status).toBe(401);
    // Neither spent the code: its session can still use it for its order.
    expect((await confirm(a.cookie, { orderId: "5502", code }, "203.0.113.20")).status).toBe(200);
  });

  it("an expired code is refused (410), without spending an attempt", async () => {
    const g = await guestSession();
    await ask(g.cookie, { orderId: "5502", email: "lena@example.org" });
    const code = await codeFromMail(g.id, "5502");
    const row = await rowOf(g.id, "5502");
    await getDb()
      .update(guestVerifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(guestVerifications.id, row.id));
    const res = await confirm(g.cookie, { orderId: "5502", code });
    expect(res.status).toBe(410);
    expect((await res.json()).error.code).toBe("code_expired");
    expect((await rowOf(g.id, "5502")).attempts).toBe(0);
  });

  it("20 order numbers from one session: rate limited after a few, and every answer alike", async () => {
    const g = await guestSession();
    const seen: string[] = [];
    for (let i = 0; i < 20; i++) {
      const orderId = i === 3 ? "5502" : String(6000 + i);
      const res = await ask(g.cookie, { orderId, email: "lena@example.org" });
      const body = await res.json();
      seen.push(`${res.status}:${res.status === 202 ? JSON.stringify(body) : body.error.code}`);
    }
    expect(seen.slice(0, 5)).toEqual(Array(5).fill('202:{"sent":true}'));
    expect(seen.slice(5)).toEqual(Array(15).fill("429:rate_limited"));
  });

  it("at most 3 codes per order per hour, whichever sessions ask", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const peer = `198.51.100.${i + 1}`;
      const g = await guestSession(peer);
      statuses.push(
        (await ask(g.cookie, { orderId: "5501", email: "x@example.org" }, peer)).status,
      );
    }
    expect(statuses).toEqual([202, 202, 202, 429]);
  });

  it("an address is limited across sessions, an IPv6 client by its /64", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      // Other addresses of one /64 each start a session (two per address: the session limit).
      const peer = `2001:db8:1:2::${(i + 1).toString(16)}`;
      const g = await guestSession(`2001:db8:9:${i}::1`);
      statuses.push(
        (await ask(g.cookie, { orderId: String(7000 + i), email: "x@example.org" }, peer)).status,
      );
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(202));
    expect(statuses[10]).toBe(429);
    // The next /64 has its own budget.
    const g = await guestSession("2001:db8:9:99::1");
    expect(
      (await ask(g.cookie, { orderId: "7999", email: "x@example.org" }, "2001:db8:1:3::1")).status,
    ).toBe(202);
  });

  it("a signed-in customer needs no code: the endpoints are the guest's", async () => {
    const anna = await Customer.signIn("anna@example.com");
    const res = await ask(anna.cookie, { orderId: "7718", email: "anna@example.com" });
    expect(res.status).toBe(403);
    const anon = await call(
      requestCode,
      "/api/guest/verification",
      {},
      {
        body: { orderId: "5502", email: "lena@example.org" },
      },
    );
    expect(anon.status).toBe(401);
  });

  it("bad bodies get clear 400s, never a 500", async () => {
    const g = await guestSession();
    for (const body of [
      {},
      { orderId: "5502" },
      { orderId: "x".repeat(40), email: "a@b.c" },
      { orderId: 5502, email: 1 },
    ]) {
      const res = await ask(g.cookie, body);
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe("invalid_request");
    }
    const res = await confirm(g.cookie, { orderId: "5502" });
    expect(res.status).toBe(400);
  });
});

describe("a verified guest acts on that order alone", () => {
  let server: OpenAIServer;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ server, stop } = await useLoopbackModel());
    g0[MARK] = PEER_HEADER;
  });
  afterAll(async () => {
    delete g0[MARK];
    await stop();
  });
  beforeEach(async () => {
    server.requests.length = 0;
    await resetRateLimits();
  });

  async function verified(orderId = "5502", peer = "203.0.113.50") {
    const g = await guestSession(peer);
    await ask(g.cookie, { orderId, email: "lena@example.org" }, peer);
    const code = await codeFromMail(g.id, orderId);
    expect((await confirm(g.cookie, { orderId, code }, peer)).status).toBe(200);
    return g;
  }

  it("before verifying, the return policy alone; after, the order tools (no hand-off)", async () => {
    const g = await guestSession("203.0.113.60");
    server.enqueue({ type: "text", text: "Use the form." });
    const chatId = await g.customer.newChat();
    await g.customer.say(chatId, "Where is order 5502?");
    expect(
      ((server.requests[0]!.body.tools ?? []) as Advertised).map((t) => t.function.name),
    ).toEqual(["get_return_policy"]);
    await ask(g.cookie, { orderId: "5502", email: "lena@example.org" }, "203.0.113.60");
    const code = await codeFromMail(g.id, "5502");
    expect((await confirm(g.cookie, { orderId: "5502", code }, "203.0.113.60")).status).toBe(200);
    server.enqueue({ type: "text", text: "Let me look." });
    await g.customer.say(chatId, "Where is order 5502?");
    const names = ((server.requests[1]!.body.tools ?? []) as Advertised).map(
      (t) => t.function.name,
    );
    expect(names).toEqual(expect.arrayContaining(["get_order_status", "create_return_request"]));
    expect(names).not.toContain("request_human");
  });

  it("reads and returns an item of the verified order through the same card and confirm", async () => {
    const g = await verified();
    const chatId = await g.customer.newChat();
    server.enqueue({
      type: "tool-calls",
      calls: [{ name: "get_order_status", arguments: { orderId: "5502" } }],
    });
    server.enqueue({ type: "text", text: "It was delivered." });
    await g.customer.say(chatId, "Where is 5502?");
    const toolResult = JSON.stringify(server.requests[1]!.body.messages);
    expect(toolResult).toContain("Stoneware mug");
    server.enqueue({
      type: "tool-calls",
      calls: [
        {
          name: "create_return_request",
          arguments: {
            orderId: "5502",
            items: [{ line: "Tea towel", quantity: 1 }],
            reason: "other",
          },
        },
      ],
    });
    const turn = await g.customer.say(chatId, "Return the tea towel, I changed my mind");
    const card = pendingActionPart(turn.message) as { data: { id: string } } | undefined;
    expect(card).toBeDefined();
    const res = await g.customer.confirm(card!.data.id);
    expect(res.status).toBe(200);
    expect((await res.json()).action.status).toBe("executed");
    // The confirmation mail goes to the mailbox the guest proved, not to its `.invalid` address.
    const [mail] = await getDb()
      .select()
      .from(effects)
      .where(and(eq(effects.actionId, card!.data.id), eq(effects.kind, "mail.return_confirmed")));
    expect(mail?.payload).toMatchObject({ to: "lena@example.org", orderId: "5502" });
    const [guestRow] = await getDb().select().from(user).where(eq(user.id, g.id));
    expect(guestRow?.name).toBe("Verified guest (order 5502, l•••@example.org)");
  });

  it("another order is refused: it reads as not found", async () => {
    const g = await verified("5502", "203.0.113.51");
    const chatId = await g.customer.newChat();
    server.enqueue({
      type: "tool-calls",
      calls: [
        { name: "get_order_status", arguments: { orderId: "5501" } },
        { name: "get_order_status", arguments: { orderId: "7718" } },
      ],
    });
    server.enqueue({ type: "text", text: "I can't find those." });
    await g.customer.say(chatId, "and 5501 and 7718?");
    const seen = JSON.stringify(server.requests[1]!.body.messages);
    expect(seen).not.toContain("Linen apron");
    expect(seen).not.toContain("Barista");
    expect(seen).toContain("order_not_found");
  });

  it("an order whose e-mail changed at the store after verification is refused", async () => {
    const g = await verified("5501", "203.0.113.52");
    await getDb()
      .update(orders)
      .set({ email: "new-owner@example.org" })
      .where(eq(orders.id, "5501"));
    try {
      const chatId = await g.customer.newChat();
      server.enqueue({
        type: "tool-calls",
        calls: [{ name: "get_order_status", arguments: { orderId: "5501" } }],
      });
      server.enqueue({ type: "text", text: "Not found." });
      await g.customer.say(chatId, "where is 5501?");
      // The order is closed at once: the turn is a visitor's again (the policy alone), and the
      // model's call reaches nothing.
      const sent = server.requests.at(-1)!.body;
      expect(JSON.stringify(sent.messages)).not.toContain("Linen apron");
      expect(((sent.tools ?? []) as Advertised).map((t) => t.function.name)).toEqual([
        "get_return_policy",
      ]);
    } finally {
      await getDb().update(orders).set({ email: "lena@example.org" }).where(eq(orders.id, "5501"));
    }
  });

  it("a proposal made while verified is refused at confirm once the e-mail changed", async () => {
    const g = await verified("5501", "203.0.113.53");
    const chatId = await g.customer.newChat();
    server.enqueue({
      type: "tool-calls",
      calls: [{ name: "cancel_order", arguments: { orderId: "5501", reason: "changed_mind" } }],
    });
    const turn = await g.customer.say(chatId, "cancel 5501, changed my mind");
    const card = pendingActionPart(turn.message) as { data: { id: string } } | undefined;
    expect(card).toBeDefined();
    await getDb()
      .update(orders)
      .set({ email: "new-owner@example.org" })
      .where(eq(orders.id, "5501"));
    try {
      const res = await g.customer.confirm(card!.data.id);
      const body = await res.json();
      expect(body.action?.status ?? body.error?.code).not.toBe("executed");
      const [order] = await getDb().select().from(orders).where(eq(orders.id, "5501"));
      expect(order?.status).toBe("processing");
    } finally {
      await getDb().update(orders).set({ email: "lena@example.org" }).where(eq(orders.id, "5501"));
    }
  });

  it("a code typed into the chat is neither stored nor sent to the model", async () => {
    const g = await guestSession("203.0.113.70");
    await ask(g.cookie, { orderId: "5502", email: "lena@example.org" }, "203.0.113.70");
    const code = await codeFromMail(g.id, "5502");
    server.enqueue({ type: "text", text: "Please use the form." });
    const chatId = await g.customer.newChat();
    await g.customer.say(chatId, `my code is ${code.slice(0, 3)} ${code.slice(3)} for 5502`);
    expect(JSON.stringify(server.requests[0]!.body)).not.toContain(
      `${code.slice(0, 3)} ${code.slice(3)}`,
    );
    expect(JSON.stringify(server.requests[0]!.body)).toContain(CODE_MASK);
    const stored = await getDb().select().from(messages).where(eq(messages.chatId, chatId));
    const all = JSON.stringify(stored);
    expect(all).not.toContain(`${code.slice(0, 3)} ${code.slice(3)}`);
    expect(all).not.toContain(code);
    expect(all).toContain(CODE_MASK);
    expect(all).toContain("5502");
  });

  it("the audit names the verified guest by order and masked e-mail, never the address", async () => {
    const g = await verified("5502", "203.0.113.54");
    const events = await getDb()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, g.id), eq(auditEvents.tool, "guest:verification")));
    const text = JSON.stringify(events);
    expect(text).toContain("l•••@example.org");
    expect(text).not.toContain("lena@example.org");
    expect(events.at(-1)?.result).toMatchObject({ actor: "verified_guest", orderId: "5502" });
  });

  it("the verification lapses after 30 minutes", async () => {
    const g = await verified("5502", "203.0.113.55");
    await getDb()
      .update(guestVerifications)
      .set({ verifiedUntil: new Date(Date.now() - 1000) })
      .where(eq(guestVerifications.userId, g.id));
    server.enqueue({ type: "text", text: "Use the form." });
    const chatId = await g.customer.newChat();
    await g.customer.say(chatId, "Where is order 5502?");
    expect(
      ((server.requests[0]!.body.tools ?? []) as Advertised).map((t) => t.function.name),
    ).toEqual(["get_return_policy"]);
    expect(await actionsIn(chatId)).toEqual([]);
    expect(await auditStatuses(chatId)).toEqual([]);
  });
});
