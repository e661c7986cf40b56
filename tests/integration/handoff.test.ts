/**
 * A person takes over a chat. Through the real route handlers, on SQLite and
 * PostgreSQL: the offline model hands off on "I want to talk to a human" / «позовите оператора»,
 * the assistant then stays silent, staff reply (role staff, their name) and release, customers
 * get 403 on the staff routes, bad input is a JSON error, every step is audited, a handoff
 * supersedes the chat's pending proposal, and the races (a staff reply against the customer's
 * message, a release against a reply) leave one consistent history.
 */
import { and, asc, eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as staffReplyRoute } from "@/app/api/staff/chats/[id]/messages/route";
import { POST as releaseRoute } from "@/app/api/staff/chats/[id]/release/route";
import { GET as queueRoute } from "@/app/api/staff/handoffs/route";
import { getDb } from "@/db";
import { auditEvents, handoffs, messages } from "@/db/schema";
import { replyAsStaff, requestHandoff } from "@/lib/chat/handoff";
import { resetRateLimits } from "@/lib/http/rate-limit";
import { handoffsReport } from "@/lib/metrics/handoffs";
import { Customer } from "../helpers/chat";
import { userIdOf, useTestDatabase } from "../helpers/db";
import { call, signIn } from "../helpers/http";
import { actionsIn, auditStatuses } from "../helpers/inspect";

const storedMessages = (chatId: string) =>
  getDb().select().from(messages).where(eq(messages.chatId, chatId)).orderBy(asc(messages.seq));

class Staff {
  constructor(readonly cookie: string) {}
  reply(chatId: string, body: unknown, raw?: string): Promise<Response> {
    return call(
      staffReplyRoute,
      `/api/staff/chats/${chatId}/messages`,
      { id: chatId },
      {
        cookie: this.cookie,
        method: "POST",
        body,
        raw,
        headers: raw ? { "content-type": "application/json" } : {},
      },
    );
  }
  release(chatId: string): Promise<Response> {
    return call(
      releaseRoute,
      `/api/staff/chats/${chatId}/release`,
      { id: chatId },
      { cookie: this.cookie, method: "POST" },
    );
  }
  queue(): Promise<Response> {
    return call(queueRoute, "/api/staff/handoffs", {}, { cookie: this.cookie });
  }
}

async function chatView(customer: Customer, chatId: string) {
  const res = await customer.getChat(chatId);
  expect(res.status).toBe(200);
  return (await res.json()) as {
    chat: { handoff: { status: string; since: string; staff?: { name: string } } | null };
    messages: { role: string; parts: { type: string; text?: string; data?: unknown }[] }[];
  };
}

describe("a person takes over a chat", () => {
  let anna: Customer;
  let staff: Staff;
  let annaId: string;
  beforeAll(async () => {
    await useTestDatabase();
    anna = await Customer.signIn("anna@example.com");
    staff = new Staff(await signIn("staff@example.com"));
    annaId = await userIdOf("anna@example.com");
  });
  beforeEach(async () => {
    await resetRateLimits();
  });

  async function handedOffChat(text = "I want to talk to a human"): Promise<string> {
    const chatId = await anna.newChat();
    const turn = await anna.say(chatId, text);
    expect(turn.status).toBe(200);
    return chatId;
  }

  it("hands off on a request for a person (en and ru), and says so in GET /api/chats/{id}", async () => {
    for (const [text, note] of [
      ["I want to talk to a human", "A person from our team will reply"],
      ["Позовите оператора, пожалуйста", "Скоро здесь ответит сотрудник"],
    ] as const) {
      const chatId = await anna.newChat();
      const turn = await anna.say(chatId, text);
      expect(turn.text).toContain(note);
      expect(turn.message?.parts.some((p) => p.type === "data-handoff")).toBe(true);
      const view = await chatView(anna, chatId);
      expect(view.chat.handoff?.status).toBe("waiting");
      expect(view.chat.handoff?.staff).toBeUndefined();
      expect(Number.isNaN(Date.parse(view.chat.handoff?.since ?? ""))).toBe(false);
      expect(await auditStatuses(chatId)).toContain("request_human:success");
    }
  });

  it("does not hand off on other messages, nor on a question about people", async () => {
    for (const text of ["Where is my order 8041?", "Do humans read this chat?"]) {
      const chatId = await anna.newChat();
      const turn = await anna.say(chatId, text);
      expect(turn.message?.parts.some((p) => p.type === "data-handoff")).toBe(false);
      expect((await chatView(anna, chatId)).chat.handoff).toBeNull();
    }
  });

  it("in handoff the assistant neither answers nor calls tools: the message is stored with a note", async () => {
    const chatId = await handedOffChat();
    const before = (await storedMessages(chatId)).length;
    const turn = await anna.say(chatId, "Where is my order 8041?");
    expect(turn.status).toBe(200);
    expect(turn.text).toContain("A person from our team will reply");
    expect(turn.message?.parts.some((p) => p.type.startsWith("tool-"))).toBe(false);
    const rows = await storedMessages(chatId);
    expect(rows.length).toBe(before + 2);
    expect(rows.at(-2)?.role).toBe("user");
    expect(rows.at(-1)?.role).toBe("assistant");
    // No tool ran: the only events are the handoff's.
    expect((await auditStatuses(chatId)).filter((s) => s.startsWith("get_order_status"))).toEqual(
      [],
    );
  });

  it("staff reply as role staff with their name; the handoff becomes active; release hands back", async () => {
    const chatId = await handedOffChat();
    const queue = (await (await staff.queue()).json()) as { handoffs: { chatId: string }[] };
    expect(queue.handoffs.map((h) => h.chatId)).toContain(chatId);

    const res = await staff.reply(chatId, { text: "  Hello, I am here to help.\u0000  " });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.message.role).toBe("staff");
    expect(body.handoff).toMatchObject({ status: "active", staff: { name: "Sam Support" } });

    const view = await chatView(anna, chatId);
    expect(view.chat.handoff).toMatchObject({ status: "active", staff: { name: "Sam Support" } });
    const last = view.messages.at(-1)!;
    expect(last.role).toBe("staff");
    expect(last.parts).toContainEqual(expect.objectContaining({ type: "data-staff" }));
    // Trimmed and without the NUL, like a customer's message.
    expect(last.parts.find((p) => p.type === "text")?.text).toBe("Hello, I am here to help.");

    const released = await staff.release(chatId);
    expect(released.status).toBe(200);
    expect(await released.json()).toEqual({ handoff: null });
    expect((await chatView(anna, chatId)).chat.handoff).toBeNull();
    expect(await auditStatuses(chatId)).toEqual(
      expect.arrayContaining([
        "request_human:success",
        "staff:reply_in_chat:success",
        "staff:release_chat:success",
      ]),
    );
    // The assistant answers again, with its tools.
    const turn = await anna.say(chatId, "Where is my order 8041?");
    expect(turn.message?.parts.some((p) => p.type === "tool-get_order_status")).toBe(true);
    expect(turn.text).not.toContain("A person from our team will reply");
    // Nothing to reply to or release now.
    expect((await staff.reply(chatId, { text: "late" })).status).toBe(409);
    expect((await staff.release(chatId)).status).toBe(409);
  });

  it("records the time to the first staff reply", async () => {
    const chatId = await handedOffChat();
    expect((await staff.reply(chatId, { text: "first" })).status).toBe(201);
    const [h1] = await getDb().select().from(handoffs).where(eq(handoffs.chatId, chatId));
    expect(h1?.firstReplyAt).toBeInstanceOf(Date);
    expect((await staff.reply(chatId, { text: "second" })).status).toBe(201);
    const [h2] = await getDb().select().from(handoffs).where(eq(handoffs.chatId, chatId));
    expect(h2?.firstReplyAt?.getTime()).toBe(h1?.firstReplyAt?.getTime());
  });

  it("the metrics page's time to the first staff reply counts each handoff's first reply", async () => {
    const day = Date.UTC(2020, 0, 5) / 86_400_000;
    const at = (minutes: number) => new Date(Date.UTC(2020, 0, 5, 10, minutes));
    const sam = { id: await userIdOf("staff@example.com"), name: "Sam Support" };
    for (const [asked, firstReply] of [
      [0, 2],
      [10, 40],
    ] as const) {
      const chatId = await anna.newChat();
      await requestHandoff({ chatId, userId: annaId, now: at(asked) });
      await replyAsStaff({ chatId, staff: sam, text: "hello", now: at(firstReply) });
      await replyAsStaff({ chatId, staff: sam, text: "again", now: at(firstReply + 100) });
    }
    const unanswered = await anna.newChat();
    await requestHandoff({ chatId: unanswered, userId: annaId, now: at(5) });
    expect(await handoffsReport({ fromDay: day, toDay: day + 1 })).toEqual({
      requested: 3,
      replied: 2,
      firstReply: { p50: 2 * 60_000, p90: 30 * 60_000, max: 30 * 60_000 },
    });
  });

  it("refuses customers (403) and anonymous callers (401) on every staff route", async () => {
    const chatId = await handedOffChat();
    const asAnna = new Staff(anna.cookie);
    expect((await asAnna.reply(chatId, { text: "I am staff now" })).status).toBe(403);
    expect((await asAnna.release(chatId)).status).toBe(403);
    expect((await asAnna.queue()).status).toBe(403);
    const anonymous = new Staff("");
    expect((await anonymous.reply(chatId, { text: "x" })).status).toBe(401);
    expect((await anonymous.release(chatId)).status).toBe(401);
    expect((await anonymous.queue()).status).toBe(401);
    // Nothing changed.
    expect((await chatView(anna, chatId)).chat.handoff?.status).toBe("waiting");
  });

  it("answers bad input with the contract's JSON errors, never 500", async () => {
    const chatId = await handedOffChat();
    const code = async (res: Response) => [res.status, (await res.json()).error.code];
    expect(await code(await staff.reply(chatId, { text: "  \u0000 " }))).toEqual([
      400,
      "invalid_request",
    ]);
    expect(await code(await staff.reply(chatId, { text: 42 }))).toEqual([400, "invalid_request"]);
    expect(await code(await staff.reply(chatId, undefined, "{not json"))).toEqual([
      400,
      "invalid_request",
    ]);
    expect(await code(await staff.reply(chatId, { text: "é".repeat(2001) }))).toEqual([
      413,
      "message_too_long",
    ]);
    expect(await code(await staff.reply("no-such-chat", { text: "hi" }))).toEqual([
      404,
      "not_found",
    ]);
    expect(await code(await staff.release("no-such-chat"))).toEqual([404, "not_found"]);
    const plain = await anna.newChat();
    expect(await code(await staff.reply(plain, { text: "hi" }))).toEqual([409, "not_handed_off"]);
    expect(await code(await staff.release(plain))).toEqual([409, "not_handed_off"]);
    const crossSite = await call(
      staffReplyRoute,
      `/api/staff/chats/${chatId}/messages`,
      { id: chatId },
      {
        cookie: staff.cookie,
        body: { text: "hi" },
        headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
      },
    );
    expect(crossSite.status).toBe(403);
  });

  it("supersedes the chat's pending proposal when the chat is handed off", async () => {
    const chatId = await anna.newChat();
    const turn = await anna.say(
      chatId,
      "Create a return request for order 7718, it arrived damaged",
    );
    expect(turn.message?.parts.some((p) => p.type === "data-pending-action")).toBe(true);
    expect((await actionsIn(chatId)).map((a) => a.status)).toEqual(["pending"]);
    await requestHandoff({ chatId, userId: annaId });
    const [action] = await actionsIn(chatId);
    expect(action?.status).toBe("superseded");
    expect(action?.errorCode).toBe("handoff");
    const events = await getDb()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.chatId, chatId), eq(auditEvents.status, "superseded")));
    expect(events).toHaveLength(1);
    // The customer may write again at once: nothing waits for a decision.
    const next = await anna.say(chatId, "Hello?");
    expect(next.status).toBe(200);
    expect(next.text).toContain("A person from our team will reply");
    // Asking twice opens no second handoff.
    expect((await requestHandoff({ chatId, userId: annaId })).created).toBe(false);
    expect(await getDb().select().from(handoffs).where(eq(handoffs.chatId, chatId))).toHaveLength(
      1,
    );
  });

  it("a staff reply racing the customer's message: both are stored, in one order", async () => {
    for (let round = 0; round < 5; round++) {
      const chatId = await handedOffChat();
      const before = (await storedMessages(chatId)).length;
      const [reply, said] = await Promise.all([
        staff.reply(chatId, { text: `staff ${round}` }),
        anna.say(chatId, `customer ${round}`),
      ]);
      expect(reply.status).toBe(201);
      expect(said.status).toBe(200);
      const rows = await storedMessages(chatId);
      expect(rows.length).toBe(before + 3);
      expect(new Set(rows.map((r) => r.seq)).size).toBe(rows.length);
      expect(rows.filter((r) => r.role === "staff")).toHaveLength(1);
    }
  });

  it("a release racing a reply: the reply lands before the release or is refused", async () => {
    for (let round = 0; round < 5; round++) {
      const chatId = await handedOffChat();
      const [reply, release] = await Promise.all([
        staff.reply(chatId, { text: `racing ${round}` }),
        staff.release(chatId),
      ]);
      expect(release.status).toBe(200);
      expect([201, 409]).toContain(reply.status);
      const rows = await storedMessages(chatId);
      const staffRows = rows.filter((r) => r.role === "staff");
      const releaseNote = rows.at(-1)!;
      // The release's note is the chat's last message: no staff message after it.
      expect(JSON.stringify(releaseNote.parts)).toContain('"released"');
      expect(staffRows).toHaveLength(reply.status === 201 ? 1 : 0);
      const [h] = await getDb().select().from(handoffs).where(eq(handoffs.chatId, chatId));
      expect(h?.status).toBe("released");
      expect(h?.firstReplyAt === null).toBe(reply.status === 409);
    }
  });
});
