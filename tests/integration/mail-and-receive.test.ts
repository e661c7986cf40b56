/**
 * Customer email as outbox effects (a real SMTP server, smtp-server, started here; and
 * the .eml files of the embedded default), the return's refund when staff mark the parcel
 * received, and the staff work queue. Real database (SQLite, and PostgreSQL in the postgres
 * project), real routes, confirm and relay; only Stripe is faked, at its wire protocol.
 */
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GET as getActionRoute } from "@/app/api/actions/[id]/route";
import { POST as resolveRoute } from "@/app/api/staff/effects/[id]/resolve/route";
import { POST as retryRoute } from "@/app/api/staff/effects/[id]/retry/route";
import { GET as listEffectsRoute } from "@/app/api/staff/effects/route";
import { POST as receiveRoute } from "@/app/api/staff/returns/[requestId]/receive/route";
import { type StripeServer, startStripeServer } from "@/bench/lib/stripe-server";
import { type EffectRow, listEffectsForAction } from "@/db/queries/effects";
import {
  auditEvents,
  messages as messagesTable,
  orders,
  refundsLedger,
  returnRequests,
} from "@/db/schema";
import { cancelAction } from "@/lib/actions/cancel";
import { confirmAction } from "@/lib/actions/confirm";
import { runDueEffects } from "@/lib/effects/relay";
import { resetEnv } from "@/lib/env";
import { getTool } from "@/lib/tools/registry";
import { call, signIn } from "../helpers/http";
import { parseMail } from "../helpers/mime";
import {
  type Core,
  insertDeliveredOrder,
  newChat,
  proposeWith,
  setupCore,
} from "./action-core/fixtures";

type Received = { from: string; to: string[]; raw: string };

let core: Core;
let smtp: SMTPServer;
let smtpPort = 0;
let inbox: Received[] = [];
/** The server refuses every message with this reply while set (e.g. "550" or "451"). */
let refuseWith: number | null = null;
let stripe: StripeServer;
let staffCookie: string;
let annaCookie: string;
let nextOrderId = 7100;

const RELAY_ENV = {
  STRIPE_TIMEOUT_MS: "300",
  EFFECTS_LEASE_SECONDS: "2",
  EFFECTS_RETRY_BASE_MS: "1",
  EFFECTS_RETRY_MAX_MS: "5",
  EFFECTS_MAX_ATTEMPTS: "3",
  EFFECTS_POLL_SECONDS: "3600",
  MAIL_FROM: "Returns Desk <returns@shop.test>",
};

function useSmtp(on: boolean) {
  for (const [k, v] of Object.entries(RELAY_ENV)) process.env[k] = v;
  if (on) process.env.SMTP_URL = `smtp://desk:s3cret@127.0.0.1:${smtpPort}`;
  else delete process.env.SMTP_URL;
  delete process.env.STRIPE_SECRET_KEY;
  delete process.env.STRIPE_API_BASE;
  resetEnv();
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === "desk" && auth.password === "s3cret") cb(null, { user: "desk" });
      else cb(new Error("bad credentials"));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        if (refuseWith) {
          const err = Object.assign(new Error("refused"), { responseCode: refuseWith });
          return cb(err);
        }
        inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()));
  smtpPort = (smtp.server.address() as { port: number }).port;
  stripe = await startStripeServer();
  useSmtp(true);
  core = await setupCore();
  staffCookie = await signIn("staff@example.com");
  annaCookie = await signIn("anna@example.com");
});

afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await stripe.close();
});

beforeEach(() => {
  inbox = [];
  refuseWith = null;
  useSmtp(true);
});

/** A delivered order of Anna's, returnable. */
const deliveredOrder = (total: number) =>
  insertDeliveredOrder(core.db, { id: String(nextOrderId++), userId: core.anna, total });

async function processingOrder(total: number): Promise<string> {
  const id = await deliveredOrder(total);
  await core.db
    .update(orders)
    .set({ status: "processing", deliveredAt: null })
    .where(eq(orders.id, id));
  return id;
}

/** A chat whose customer wrote in this language (the mail follows the chat's language). */
async function chatIn(lang: "en" | "ru"): Promise<string> {
  const chatId = await newChat(core.db, core.anna);
  await core.db.insert(messagesTable).values({
    id: `m_${chatId}`,
    chatId,
    seq: 1,
    role: "user",
    parts: [
      { type: "text", text: lang === "ru" ? "Хочу вернуть заказ" : "I want to return my order" },
    ],
    createdAt: new Date(),
  });
  return chatId;
}

async function confirmedReturn(lang: "en" | "ru", total = 3900) {
  const orderId = await deliveredOrder(total);
  const chatId = await chatIn(lang);
  const action = await proposeWith("create_return_request", core.anna, chatId, {
    orderId,
    reason: "damaged",
    comment: null,
  });
  const done = await confirmAction({ actionId: action.id, userId: core.anna });
  expect(done.action.status).toBe("executed");
  const requestId = (done.result as unknown as { requestId: string }).requestId;
  return { actionId: action.id, orderId, requestId, total };
}

/**
 * A proposed return whose order then got its return another way (not this action's confirm):
 * the row another writer would have inserted, under its own operation id.
 */
async function returnMadeElsewhere(total: number) {
  const orderId = await deliveredOrder(total);
  const action = await proposeWith("create_return_request", core.anna, await chatIn("en"), {
    orderId,
    reason: "damaged",
    comment: null,
  });
  const requestId = `RR-ELSE${orderId}`;
  await core.db.insert(returnRequests).values({
    id: requestId,
    orderId,
    userId: core.anna,
    reason: "damaged",
    comment: null,
    refundAmountMinor: total,
    refundCurrency: "EUR",
    refundDestination: "Visa •••• 4242",
    actionId: null,
    operationId: `op-else-${orderId}`,
    createdAt: new Date(),
  });
  return { actionId: action.id, orderId, requestId };
}

const SETTLED = new Set(["succeeded", "failed", "needs_attention", "resolved"]);

/** Runs the relay until every effect of the action is settled. */
async function settleAll(actionId: string): Promise<EffectRow[]> {
  for (let i = 0; i < 300; i++) {
    const rows = await listEffectsForAction({ actionId });
    if (rows.every((r) => SETTLED.has(r.status))) return rows;
    if ((await runDueEffects()) === 0) await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`effects of ${actionId} never settled`);
}

const byKind = (rows: EffectRow[]) => Object.fromEntries(rows.map((r) => [r.kind, r.status]));

const receive = (requestId: string, cookie = staffCookie) =>
  call(
    receiveRoute,
    `/api/staff/returns/${requestId}/receive`,
    { requestId },
    { method: "POST", cookie },
  );

describe("customer email over SMTP", () => {
  it("a confirmed return mails its number, how to send it back and the refund, in English", async () => {
    const r = await confirmedReturn("en");
    const effects = await settleAll(r.actionId);
    expect(byKind(effects)).toEqual({ "mail.return_confirmed": "succeeded" });
    expect(inbox).toHaveLength(1);
    const mail = parseMail(inbox[0]!.raw);
    expect(inbox[0]!.to).toEqual(["anna@example.com"]);
    expect(inbox[0]!.from).toBe("returns@shop.test");
    expect(mail.messageId).toBe(`<rd-${r.actionId}-mail.return_confirmed@shop.test>`);
    expect(mail.subject).toContain(r.requestId);
    expect(mail.text).toContain(r.requestId);
    // The heading: html-to-text writes it in capitals.
    expect(mail.text.toLowerCase()).toContain("how to send the item back");
    expect(mail.text).toContain("€39.00");
    expect(mail.text).toMatch(/once the parcel has reached us/);
    expect(mail.html).toContain('<html lang="en"');
    expect(mail.html).toContain(r.requestId);
  });

  it("in Russian when the confirming chat is in Russian", async () => {
    const r = await confirmedReturn("ru");
    await settleAll(r.actionId);
    expect(inbox).toHaveLength(1);
    const mail = parseMail(inbox[0]!.raw);
    expect(mail.subject).toContain(`Возврат ${r.requestId}`);
    expect(mail.text.toLowerCase()).toContain("как отправить товар обратно");
    expect(mail.text).toContain("39,00");
    expect(mail.html).toContain('<html lang="ru"');
  });

  it("a cancellation mails the refund, then the refund's success", async () => {
    const orderId = await processingOrder(4500);
    const chatId = await chatIn("en");
    const action = await proposeWith("cancel_order", core.anna, chatId, {
      orderId,
      reason: "changed_mind",
      comment: null,
    });
    await confirmAction({ actionId: action.id, userId: core.anna });
    const effects = await settleAll(action.id);
    expect(byKind(effects)).toEqual({
      "payment.refund": "succeeded",
      "mail.cancellation_confirmed": "succeeded",
      "mail.refund_succeeded": "succeeded",
    });
    const subjects = await Promise.all(inbox.map(async (m) => parseMail(m.raw).subject));
    expect(subjects.sort()).toEqual([
      `Order ${orderId} is cancelled: refund of €45.00`,
      `Refund of €45.00 for order ${orderId} is on its way`,
    ]);
  });

  it("nothing is sent for declined, expired or superseded proposals", async () => {
    const orderId = await deliveredOrder(1000);
    const chatId = await chatIn("en");
    const args = { orderId, reason: "damaged", comment: null };
    const first = await proposeWith("create_return_request", core.anna, chatId, args);
    // A newer proposal for the same order supersedes the first.
    const second = await proposeWith("create_return_request", core.anna, chatId, {
      ...args,
      comment: "newer",
    });
    await cancelAction({ actionId: second.id, userId: core.anna });
    const expiring = await proposeWith("create_return_request", core.anna, await chatIn("en"), {
      orderId: await deliveredOrder(1100),
      reason: "damaged",
      comment: null,
    });
    // Expired: confirmed only after its time ran out.
    await expect(
      confirmAction({
        actionId: expiring.id,
        userId: core.anna,
        now: new Date(Date.now() + 7 * 86_400_000),
      }),
    ).rejects.toThrow();
    for (const id of [first.id, second.id, expiring.id]) {
      expect(await listEffectsForAction({ actionId: id })).toEqual([]);
    }
    expect(await runDueEffects()).toBe(0);
    expect(inbox).toEqual([]);
  });

  it("a confirm that finds the return already existed mails nothing more", async () => {
    const r = await returnMadeElsewhere(2100);
    const found = await confirmAction({ actionId: r.actionId, userId: core.anna });
    expect(found.action.status).toBe("executed");
    expect(found.result).toMatchObject({ createdNow: false, requestId: r.requestId });
    expect(found.effects).toEqual([]);
    expect(await listEffectsForAction({ actionId: r.actionId })).toEqual([]);
    expect(await runDueEffects()).toBe(0);
    expect(inbox).toEqual([]);
  });

  it("nor when the return appears after the check and wins the insert", async () => {
    const r = await returnMadeElsewhere(2200);
    // The window a concurrent writer has on PostgreSQL: the return commits after confirm's
    // findExisting looked, so the tool's insert-if-absent loses (writeEffectOnce's winner path).
    const tool = getTool("create_return_request") as { findExisting: (...a: never[]) => unknown };
    const missed = vi.spyOn(tool, "findExisting").mockResolvedValueOnce(null);
    try {
      const found = await confirmAction({ actionId: r.actionId, userId: core.anna });
      expect(missed).toHaveBeenCalledTimes(1);
      expect(found.action.status).toBe("executed");
      expect(found.result).toMatchObject({ createdNow: false, requestId: r.requestId });
      expect(found.effects).toEqual([]);
    } finally {
      missed.mockRestore();
    }
    expect(await runDueEffects()).toBe(0);
    expect(inbox).toEqual([]);
  });

  it("a permanent SMTP refusal ends failed; a temporary one is retried, then needs a person", async () => {
    refuseWith = 550;
    const a = await confirmedReturn("en");
    expect(byKind(await settleAll(a.actionId))).toEqual({ "mail.return_confirmed": "failed" });
    refuseWith = 451;
    const b = await confirmedReturn("en");
    const [effect] = await settleAll(b.actionId);
    expect(effect!.status).toBe("needs_attention");
    expect(effect!.attempts).toBe(3);
    expect(effect!.lastErrorCode).toBe("smtp_451");
    expect(inbox).toEqual([]);
  });
});

describe("customer email without SMTP_URL: .eml files", () => {
  it("writes one file per mail under MAIL_DIR, named by the effect's key", async () => {
    useSmtp(false);
    const r = await confirmedReturn("en");
    const [effect] = await settleAll(r.actionId);
    expect(effect!.status).toBe("succeeded");
    const file = path.join(process.env.MAIL_DIR!, `rd-${r.actionId}-mail.return_confirmed.eml`);
    const mail = parseMail(fs.readFileSync(file));
    expect(mail.messageId).toBe(`<rd-${r.actionId}-mail.return_confirmed@shop.test>`);
    expect(mail.subject).toContain(r.requestId);
    expect(inbox).toEqual([]);
  });
});

// biome-ignore lint/suspicious/noExplicitAny: one helper for four route handlers' param types
type AnyRoute = (req: Request, ctx: { params: Promise<any> }) => Promise<Response>;
const staffCall = (fn: AnyRoute, p: string, params: Record<string, string>, body?: unknown) =>
  call(fn, p, params, {
    method: p.startsWith("/api/staff/effects?") ? "GET" : "POST",
    cookie: staffCookie,
    ...(body === undefined ? {} : { body }),
  });

async function actionOutcome(actionId: string): Promise<{ text: string; settled: boolean }> {
  const res = await call(
    getActionRoute,
    `/api/actions/${actionId}`,
    { id: actionId },
    { cookie: annaCookie },
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { view: { outcome: { text: string; settled: boolean } } }).view
    .outcome;
}

async function actionNote(actionId: string): Promise<string> {
  return (await actionOutcome(actionId)).text;
}

const ledgerRows = (operationId: string) =>
  core.db.select().from(refundsLedger).where(eq(refundsLedger.operationId, operationId));

describe("the return's refund on receipt", () => {
  it("staff mark it received: one refund, the customer is mailed, the card says refunded", async () => {
    const r = await confirmedReturn("en", 2500);
    await settleAll(r.actionId);
    inbox = [];
    // Not settled while the parcel is awaited, though no effect is under way: the customer's card
    // keeps following it, so staff's receipt shows up there without a reload.
    expect(await actionOutcome(r.actionId)).toMatchObject({
      text: expect.stringContaining(`Request ID: ${r.requestId}`),
      settled: false,
    });

    const res = await receive(r.requestId);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { return: Record<string, unknown> };
    expect(body.return).toMatchObject({
      id: r.requestId,
      orderId: r.orderId,
      state: "received",
      receivedBy: core.staff,
      refund: { amount: 2500, currency: "EUR", status: "pending" },
    });
    expect(await actionNote(r.actionId)).toContain("Refund of €25.00: processing");

    const effects = await settleAll(r.actionId);
    expect(byKind(effects)).toEqual({
      "mail.return_confirmed": "succeeded",
      "payment.refund": "succeeded",
      "mail.refund_succeeded": "succeeded",
    });
    const refund = effects.find((e) => e.kind === "payment.refund")!;
    expect(refund.idempotencyKey).toBe(`rd-${r.actionId}-payment.refund`);
    expect(await ledgerRows(r.actionId)).toHaveLength(1);
    expect(inbox.map((m) => parseMail(m.raw).subject)).toEqual([
      `Refund of €25.00 for order ${r.orderId} is on its way`,
    ]);
    expect(await actionOutcome(r.actionId)).toMatchObject({
      text: expect.stringContaining("Refund of €25.00: refunded"),
      settled: true,
    });

    // A second call is harmless: 409 with the return as it stands, nothing scheduled again.
    const again = await receive(r.requestId);
    expect(again.status).toBe(409);
    expect(
      ((await again.json()) as { error: { return: { state: string } } }).error.return.state,
    ).toBe("refunded");
    expect(await runDueEffects()).toBe(0);
    expect(await ledgerRows(r.actionId)).toHaveLength(1);

    // Audited with who and when.
    const audit = await core.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.tool, "staff:mark_return_received"));
    const mine = audit.filter(
      (e) => (e.arguments as { requestId: string }).requestId === r.requestId,
    );
    expect(mine.map((e) => [e.status, e.userId, e.errorCode, e.access, e.actionId])).toEqual([
      ["success", core.staff, null, "write", r.actionId],
      ["business_error", core.staff, "already_received", "write", r.actionId],
    ]);
    // What each says: the receipt and the refund it scheduled; the refusal, the first receipt.
    const receivedAt = body.return.receivedAt as string;
    expect(Number.isNaN(Date.parse(receivedAt))).toBe(false);
    expect(mine[0]?.result).toEqual({
      requestId: r.requestId,
      orderId: r.orderId,
      receivedAt,
      receivedBy: core.staff,
      refund: ["payment.refund"],
    });
    expect(mine[1]?.result).toEqual({
      requestId: r.requestId,
      receivedAt,
      receivedBy: core.staff,
    });
  });

  it("racing receive calls schedule one refund", async () => {
    const r = await confirmedReturn("en", 1700);
    const answers = await Promise.all(Array.from({ length: 6 }, () => receive(r.requestId)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    await settleAll(r.actionId);
    expect(await ledgerRows(r.actionId)).toHaveLength(1);
    const [row] = await core.db
      .select()
      .from(returnRequests)
      .where(eq(returnRequests.id, r.requestId));
    expect(row!.receivedBy).toBe(core.staff);
  });

  it("404 for an unknown return, and a 409 names the return as it stands", async () => {
    const res = await receive("RR-NOPE");
    expect(res.status).toBe(404);
    expect((await res.json()).error).toMatchObject({
      code: "not_found",
      message: "No such return request.",
    });
    const r = await confirmedReturn("en", 1800);
    expect((await receive(r.requestId)).status).toBe(200);
    const again = await receive(r.requestId);
    expect(again.status).toBe(409);
    expect((await again.json()).error).toMatchObject({
      code: "conflict",
      message: "This return was already marked received.",
      return: { id: r.requestId, state: "received", receivedBy: core.staff },
    });
    // Its refund is carried out here, not by a later case's relay.
    await settleAll(r.actionId);
  });
});

describe("the staff work queue", () => {
  it("lists a declined refund with its customer; resolve by hand ends it resolved, once", async () => {
    process.env.STRIPE_SECRET_KEY = stripe.secretKey;
    process.env.STRIPE_API_BASE = stripe.url;
    resetEnv();
    const r = await confirmedReturn("en", 3100);
    stripe.fail("decline");
    expect((await receive(r.requestId)).status).toBe(200);
    const effects = await settleAll(r.actionId);
    expect(byKind(effects)).toMatchObject({
      "payment.refund": "failed",
      "mail.refund_failed": "succeeded",
    });
    const refund = effects.find((e) => e.kind === "payment.refund")!;
    expect(inbox.map((m) => parseMail(m.raw).subject)).toContain(
      `Refund for order ${r.orderId}: it did not go through`,
    );
    expect(await actionNote(r.actionId)).toContain("the refund failed: our team will contact you");

    const list = await staffCall(listEffectsRoute, "/api/staff/effects?status=failed", {});
    expect(list.status).toBe(200);
    const listed = ((await list.json()) as { effects: Record<string, unknown>[] }).effects;
    expect(listed.find((e) => e.id === refund.id)).toMatchObject({
      actionId: r.actionId,
      kind: "payment.refund",
      status: "failed",
      attempts: 1,
      lastErrorCode: "charge_already_refunded",
      tool: "create_return_request",
      customer: { id: core.anna, email: "anna@example.com" },
    });

    const path = `/api/staff/effects/${refund.id}/resolve`;
    const resolved = await staffCall(
      resolveRoute,
      path,
      { id: refund.id },
      // A NUL would be a 500 on PostgreSQL; controls and bidi would reach the queue and the audit.
      { note: " Paid by\u0000 bank\r\ntransfer\u202E\u200B " },
    );
    expect(resolved.status).toBe(200);
    expect(((await resolved.json()) as { effect: unknown }).effect).toMatchObject({
      status: "resolved",
      resolutionNote: "Paid by bank transfer",
      resolvedBy: core.staff,
    });
    const second = await staffCall(resolveRoute, path, { id: refund.id }, { note: "again" });
    expect(second.status).toBe(409);
    expect(await actionNote(r.actionId)).toContain("settled by our team");
    const empty = await staffCall(resolveRoute, path, { id: refund.id }, { note: "  " });
    expect(empty.status).toBe(400);
  });

  it("retry sends a needs_attention refund again with the same key, after a lookup", async () => {
    process.env.STRIPE_SECRET_KEY = stripe.secretKey;
    process.env.STRIPE_API_BASE = stripe.url;
    resetEnv();
    const r = await confirmedReturn("en", 4200);
    stripe.setDown(true);
    expect((await receive(r.requestId)).status).toBe(200);
    let refund = (await settleAll(r.actionId)).find((e) => e.kind === "payment.refund")!;
    expect(refund.status).toBe("needs_attention");
    const key = refund.idempotencyKey;

    const list = await staffCall(listEffectsRoute, "/api/staff/effects?status=needs_attention", {});
    const ids = ((await list.json()) as { effects: { id: string }[] }).effects.map((e) => e.id);
    expect(ids).toContain(refund.id);

    stripe.setDown(false);
    const before = stripe.requests.length;
    const res = await staffCall(
      retryRoute,
      `/api/staff/effects/${refund.id}/retry`,
      { id: refund.id },
      { updatedAt: refund.updatedAt.toISOString() },
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as { effect: unknown }).effect).toMatchObject({
      status: "pending",
      attempts: 0,
    });
    refund = (await settleAll(r.actionId)).find((e) => e.kind === "payment.refund")!;
    expect(refund.status).toBe("succeeded");
    expect(refund.attempts).toBe(1);
    expect(refund.idempotencyKey).toBe(key);
    // Looked up first (it had been attempted), then sent with the same key.
    const after = stripe.requests.slice(before);
    expect(after.map((q) => q.method)).toEqual(["GET", "POST"]);
    expect(after[1]!.key).toBe(key);
    expect(stripe.refunds.filter((x) => x.metadata.operation_id === r.actionId)).toHaveLength(1);
    // Retrying a settled effect is refused.
    const again = await staffCall(
      retryRoute,
      `/api/staff/effects/${refund.id}/retry`,
      { id: refund.id },
      { updatedAt: refund.updatedAt.toISOString() },
    );
    expect(again.status).toBe(409);
  });

  it("rejects an unknown status filter", async () => {
    const res = await staffCall(listEffectsRoute, "/api/staff/effects?status=pending", {});
    expect(res.status).toBe(400);
  });
});

describe("staff routes refuse customers", () => {
  it("403 for a customer on every staff route of this issue", async () => {
    const r = await confirmedReturn("en", 900);
    const [effect] = await listEffectsForAction({ actionId: r.actionId });
    const id = effect!.id;
    const answers = [
      await call(
        receiveRoute,
        `/api/staff/returns/${r.requestId}/receive`,
        { requestId: r.requestId },
        { method: "POST", cookie: annaCookie },
      ),
      await call(listEffectsRoute, "/api/staff/effects", {}, { cookie: annaCookie }),
      await call(
        retryRoute,
        `/api/staff/effects/${id}/retry`,
        { id },
        { method: "POST", cookie: annaCookie },
      ),
      await call(
        resolveRoute,
        `/api/staff/effects/${id}/resolve`,
        { id },
        { method: "POST", cookie: annaCookie, body: { note: "x" } },
      ),
    ];
    expect(answers.map((a) => a.status)).toEqual([403, 403, 403, 403]);
    const [row] = await core.db
      .select()
      .from(returnRequests)
      .where(eq(returnRequests.id, r.requestId));
    expect(row!.receivedAt).toBeNull();
  });
});
