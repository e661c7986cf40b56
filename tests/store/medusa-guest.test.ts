/**
 * A shopper without an account, at the REAL Medusa server (STORE_BACKEND=medusa): a guest session
 * asks for a code for a Medusa order by its number and the e-mail it carries at Medusa (every
 * Medusa order has one; this one is a registered customer's, verified the same way), reads the
 * code from the mail (an .eml file under MAIL_DIR, the embedded default), confirms it, and cancels
 * that order through the confirm card's endpoint; the relay cancels it at Medusa once. A wrong
 * e-mail answers the same and mails nothing. Real SQLite, route handlers, relay; nothing of
 * Medusa is faked.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { POST as startGuestSession } from "@/app/api/guest/session/route";
import { POST as confirmCode } from "@/app/api/guest/verification/confirm/route";
import { POST as requestCode } from "@/app/api/guest/verification/route";
import { getDb } from "@/db";
import { guestVerifications } from "@/db/schema";
import { resetRateLimits } from "@/lib/http/rate-limit";
import { Customer } from "../helpers/chat";
import { call } from "../helpers/http";
import { parseMail } from "../helpers/mime";
import { newChat, proposeWith } from "../integration/action-core/fixtures";
import { admin, adminOrder, relayPass, storeSuite } from "./harness";

const KIND = "store.cancel_order";
const suite = storeSuite({
  EFFECTS_RETRY_BASE_MS: "1",
  EFFECTS_RETRY_MAX_MS: "5",
  EFFECTS_POLL_SECONDS: "3600",
  MEDUSA_TIMEOUT_MS: "5000",
  APPROVAL_THRESHOLD_MINOR: "0",
});

/** The header scripts/serve.mjs stamps with the socket's address; set here as it would be. */
const PEER_HEADER = "x-returns-desk-peer";
const MARK = Symbol.for("returns-desk.peer-header");
const g0 = globalThis as Record<symbol, unknown>;
const headers = { [PEER_HEADER]: "203.0.113.9" };

beforeAll(async () => {
  g0[MARK] = PEER_HEADER;
  await resetRateLimits();
});
afterAll(() => {
  delete g0[MARK];
});

async function guestSession() {
  const res = await call(
    startGuestSession,
    "/api/guest/session",
    {},
    {
      body: { locale: "en" },
      headers,
    },
  );
  expect(res.status).toBe(200);
  const cookie = res.headers.getSetCookie()[0]!.split(";")[0]!;
  return { cookie, id: (await res.json()).user.id as string };
}

/** This guest's newest verification row for the order. */
async function rowOf(userId: string, orderId: string) {
  const rows = await getDb()
    .select()
    .from(guestVerifications)
    .where(and(eq(guestVerifications.userId, userId), eq(guestVerifications.orderId, orderId)));
  return rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0]!;
}

const script = path.resolve(import.meta.dirname, "../../scripts/store-medusa.mjs");

/** A fresh paid, unshipped order of Boris's at Medusa (no other suite's), for this file. */
async function freshOrder(): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [script, "order", "--customer", "boris", "--state", "processing"],
    { timeout: 60_000 },
  );
  return (JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as { displayId: string }).displayId;
}

const mailOf = (rowId: string) =>
  path.join(process.env.MAIL_DIR!, `rd-${rowId}-mail.guest_code.eml`);

it("a guest verifies a Medusa order by its e-mail with the code from the mail, then cancels it through the confirm card: cancelled at Medusa once", async () => {
  const id = await freshOrder();
  expect((await adminOrder(id)).status).not.toBe("canceled");
  const g = await guestSession();

  // A wrong e-mail: the same answer, a code that can never be confirmed, no mail.
  const wrong = await call(
    requestCode,
    "/api/guest/verification",
    {},
    {
      cookie: g.cookie,
      body: { orderId: id, email: "someone@example.org" },
      headers,
    },
  );
  expect(wrong.status).toBe(202);
  expect(await wrong.json()).toEqual({ sent: true });
  const unmatched = await rowOf(g.id, id);
  expect(unmatched.matched).toBe(false);

  // The order's own e-mail at Medusa, written as a person might type it.
  const res = await call(
    requestCode,
    "/api/guest/verification",
    {},
    {
      cookie: g.cookie,
      body: { orderId: id, email: "  Boris@Example.com " },
      headers,
    },
  );
  expect(res.status).toBe(202);
  expect(await res.json()).toEqual({ sent: true });
  const row = await rowOf(g.id, id);
  expect(row.matched).toBe(true);
  await vi.waitFor(() => expect(fs.existsSync(mailOf(row.id))).toBe(true), { timeout: 10_000 });
  expect(fs.existsSync(mailOf(unmatched.id))).toBe(false);
  const mail = parseMail(fs.readFileSync(mailOf(row.id)));
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  expect(code).toBeDefined();

  const ok = await call(
    confirmCode,
    "/api/guest/verification/confirm",
    {},
    {
      cookie: g.cookie,
      body: { orderId: id, code },
      headers,
    },
  );
  expect(ok.status).toBe(200);
  expect((await ok.json()).verified.orderId).toBe(id);

  // The cancel: proposed as the chat turn proposes it, confirmed through the card's endpoint.
  const chatId = await newChat(suite.core.db, g.id);
  const card = await proposeWith("cancel_order", g.id, chatId, {
    orderId: id,
    reason: "changed_mind",
    comment: null,
  });
  const confirmed = await Customer.withCookie(g.cookie).confirm(card.id);
  expect(confirmed.status).toBe(200);
  expect((await confirmed.json()).action.status).toBe("executed");

  const e = await relayPass(card.id, KIND);
  expect(e.status).toBe("succeeded");
  const at = await adminOrder(id);
  expect(at.status).toBe("canceled");
  const cancel = new RegExp(`^POST /admin/orders/${at.id}/cancel$`);
  expect(suite.proxy.count(cancel)).toBe(1);
  // Another pass sends nothing more.
  await relayPass(card.id, KIND);
  expect(suite.proxy.count(cancel)).toBe(1);
});

it("a Medusa order of another e-mail stays closed to the guest: no card, nothing at Medusa", async () => {
  const id = await freshOrder();
  const g = await guestSession();
  const res = await call(
    requestCode,
    "/api/guest/verification",
    {},
    {
      cookie: g.cookie,
      body: { orderId: id, email: "anna@example.com" },
      headers,
    },
  );
  expect(res.status).toBe(202);
  expect((await rowOf(g.id, id)).matched).toBe(false);
  // Part of the order's e-mail: Medusa's search (`q`) finds the order by it; the exact check is
  // what refuses it.
  const part = await call(
    requestCode,
    "/api/guest/verification",
    {},
    {
      cookie: g.cookie,
      body: { orderId: id, email: "oris@example.com" },
      headers,
    },
  );
  expect(part.status).toBe(202);
  expect(await part.json()).toEqual({ sent: true });
  expect((await rowOf(g.id, id)).matched).toBe(false);
  const chatId = await newChat(suite.core.db, g.id);
  await expect(
    proposeWith("cancel_order", g.id, chatId, {
      orderId: id,
      reason: "changed_mind",
      comment: null,
    }),
  ).rejects.toThrow();
  expect(suite.proxy.count(/^POST \/admin\/orders\/[^/]+\/cancel$/)).toBe(1);
});

it("a verified guest whose Medusa order's e-mail was changed at the store afterwards is refused", async () => {
  const id = await freshOrder();
  const g = await guestSession();
  const res = await call(
    requestCode,
    "/api/guest/verification",
    {},
    {
      cookie: g.cookie,
      body: { orderId: id, email: "boris@example.com" },
      headers,
    },
  );
  expect(res.status).toBe(202);
  const row = await rowOf(g.id, id);
  await vi.waitFor(() => expect(fs.existsSync(mailOf(row.id))).toBe(true), { timeout: 10_000 });
  const code = /\b(\d{6})\b/.exec(parseMail(fs.readFileSync(mailOf(row.id))).text)?.[1];
  const ok = await call(
    confirmCode,
    "/api/guest/verification/confirm",
    {},
    {
      cookie: g.cookie,
      body: { orderId: id, code },
      headers,
    },
  );
  expect(ok.status).toBe(200);
  // The merchant changes the order's e-mail at Medusa: the verification no longer opens it.
  const ref = (await adminOrder(id)).id;
  await admin(`/admin/orders/${ref}`, { method: "POST", body: { email: "other@example.org" } });
  const chatId = await newChat(suite.core.db, g.id);
  await expect(
    proposeWith("cancel_order", g.id, chatId, {
      orderId: id,
      reason: "changed_mind",
      comment: null,
    }),
  ).rejects.toThrow();
  expect(suite.proxy.count(new RegExp(`^POST /admin/orders/${ref}/cancel$`))).toBe(0);
  expect((await adminOrder(id)).status).not.toBe("canceled");
});
