/**
 * Guest accounts are deleted after GUEST_IDLE_DAYS idle, on SQLite and PostgreSQL: their
 * sessions, chats and pending actions go with them; their return at the store and the audit trail
 * stay, the trail naming the guest only by the masked e-mail. `npm run guests -- prune` does the
 * same on demand.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as startGuestSession } from "@/app/api/guest/session/route";
import { POST as confirmCode } from "@/app/api/guest/verification/confirm/route";
import { POST as requestCode } from "@/app/api/guest/verification/route";
import { getDb } from "@/db";
import { GUEST_CHECKOUT_USER_ID } from "@/db/constants";
import {
  auditEvents,
  chats,
  guestVerifications,
  pendingActions,
  returnRequests,
  session,
  user,
} from "@/db/schema";
import { pruneGuests } from "@/lib/guests/prune";
import { resetRateLimits } from "@/lib/http/rate-limit";
import { Customer } from "../helpers/chat";
import { onPostgres, userIdOf } from "../helpers/db";
import { call } from "../helpers/http";
import { useLoopbackModel } from "../helpers/loopback-model";
import { parseMail } from "../helpers/mime";
import type { OpenAIServer } from "../helpers/openai-server";
import { pendingActionPart } from "../helpers/stream";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DAY = 86_400_000;

async function guest() {
  const res = await call(startGuestSession, "/api/guest/session", {}, { body: { locale: "en" } });
  expect(res.status).toBe(200);
  const cookie = res.headers.getSetCookie()[0]!.split(";")[0]!;
  return {
    cookie,
    id: (await res.json()).user.id as string,
    customer: Customer.withCookie(cookie),
  };
}

async function verify(g: { cookie: string; id: string }, orderId: string) {
  await call(
    requestCode,
    "/api/guest/verification",
    {},
    {
      cookie: g.cookie,
      body: { orderId, email: "lena@example.org" },
    },
  );
  const [row] = await getDb()
    .select()
    .from(guestVerifications)
    .where(and(eq(guestVerifications.userId, g.id), eq(guestVerifications.matched, true)));
  const file = path.join(process.env.MAIL_DIR!, `rd-${row!.id}-mail.guest_code.eml`);
  await vi.waitFor(() => expect(fs.existsSync(file)).toBe(true), { timeout: 10_000 });
  const code = /\b(\d{6})\b/.exec(parseMail(fs.readFileSync(file)).text)![1]!;
  const res = await call(
    confirmCode,
    "/api/guest/verification/confirm",
    {},
    {
      cookie: g.cookie,
      body: { orderId, code },
    },
  );
  expect(res.status).toBe(200);
}

/** Everything that says the guest was active, moved back `days` days. */
async function ageGuest(id: string, days: number) {
  const then = new Date(Date.now() - days * DAY);
  await getDb().update(user).set({ updatedAt: then }).where(eq(user.id, id));
  await getDb().update(session).set({ updatedAt: then }).where(eq(session.userId, id));
  await getDb().update(chats).set({ updatedAt: then }).where(eq(chats.userId, id));
}

describe("pruning idle guest accounts", () => {
  let server: OpenAIServer;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ server, stop } = await useLoopbackModel());
    await resetRateLimits();
  });
  afterAll(async () => stop());

  it("deletes a guest idle past 30 days with its chats and pending actions; its return and audit stay, masked", async () => {
    const returned = await guest();
    await verify(returned, "5502");
    const chatId = await returned.customer.newChat();
    server.enqueue({
      type: "tool-calls",
      calls: [
        {
          name: "create_return_request",
          arguments: { orderId: "5502", items: [{ line: "Tea towel" }], reason: "other" },
        },
      ],
    });
    const turn = await returned.customer.say(chatId, "return the tea towel");
    const card = pendingActionPart(turn.message) as { data: { id: string } };
    expect((await returned.customer.confirm(card.data.id)).status).toBe(200);
    // A second chat with a proposal left pending.
    const pending = await guest();
    await verify(pending, "5501");
    const pendingChat = await pending.customer.newChat();
    server.enqueue({
      type: "tool-calls",
      calls: [{ name: "cancel_order", arguments: { orderId: "5501", reason: "other" } }],
    });
    await pending.customer.say(pendingChat, "cancel 5501");
    const recent = await guest();
    await ageGuest(returned.id, 31);
    await ageGuest(pending.id, 31);
    await ageGuest(recent.id, 29);
    // A customer with an account idle as long is never pruned.
    const anna = await userIdOf("anna@example.com");
    await ageGuest(anna, 400);

    expect(await pruneGuests()).toEqual({ deleted: 2 });

    const left = await getDb()
      .select({ id: user.id })
      .from(user)
      .where(inArray(user.id, [returned.id, pending.id, recent.id, anna, GUEST_CHECKOUT_USER_ID]));
    expect(left.map((u) => u.id).sort()).toEqual([recent.id, anna, GUEST_CHECKOUT_USER_ID].sort());
    expect(
      await getDb()
        .select()
        .from(chats)
        .where(inArray(chats.id, [chatId, pendingChat])),
    ).toEqual([]);
    expect(
      await getDb()
        .select()
        .from(pendingActions)
        .where(inArray(pendingActions.userId, [returned.id, pending.id])),
    ).toEqual([]);
    const [ret] = await getDb()
      .select()
      .from(returnRequests)
      .where(eq(returnRequests.orderId, "5502"));
    expect(ret?.userId).toBe(GUEST_CHECKOUT_USER_ID);
    // The audit trail of the write stays, and never holds the e-mail but masked.
    const trail = await getDb()
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.userId, returned.id));
    expect(trail.map((e) => e.tool)).toEqual(
      expect.arrayContaining(["guest:verification", "create_return_request"]),
    );
    const text = JSON.stringify(trail);
    expect(text).toContain("l•••@example.org");
    expect(text).not.toContain("lena@example.org");
    // The prune's own event keeps what staff read for each guest it deleted, masked.
    const [pruned] = await getDb()
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.tool, "guest:prune"));
    expect(pruned?.result).toMatchObject({
      deleted: 2,
      guests: expect.arrayContaining([
        { id: returned.id, name: "Verified guest (order 5502, l•••@example.org)" },
      ]),
    });
    expect(JSON.stringify(pruned)).not.toContain("lena@example.org");
    // Nothing left to prune.
    expect(await pruneGuests()).toEqual({ deleted: 0 });
  });

  it.skipIf(onPostgres())(
    "npm run guests -- prune prunes on demand, with --idle-days",
    async () => {
      // The earlier test's guests out of the way: one left three days idle, nobody else.
      await pruneGuests({ idleDays: 1 });
      const g = await guest();
      await ageGuest(g.id, 3);
      const file = process.env.DATABASE_PATH!;
      const run = (args: string[]) =>
        new Promise<{ code: number | null; out: string }>((resolve, reject) => {
          const child = spawn("npm", ["run", "-s", "guests", "--", ...args], {
            cwd: ROOT,
            env: { ...process.env, DATABASE_PATH: file, LOG_LEVEL: "silent" },
            stdio: ["ignore", "pipe", "pipe"],
          });
          let out = "";
          child.stdout.on("data", (d) => {
            out += d;
          });
          child.on("error", reject);
          child.on("close", (code) => resolve({ code, out }));
        });
      expect(await run(["prune", "--idle-days", "0"])).toMatchObject({ code: 2 });
      expect(await run(["prune"])).toEqual({ code: 0, out: '{"deleted":0}\n' });
      expect(await run(["prune", "--idle-days", "2"])).toEqual({ code: 0, out: '{"deleted":1}\n' });
      expect(await getDb().select().from(user).where(eq(user.id, g.id))).toEqual([]);
    },
  );
});
