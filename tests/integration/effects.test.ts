/**
 * A confirmed cancellation's refund goes through the effects outbox and the relay, to
 * Stripe (the real `stripe` SDK against the loopback server of bench/lib/stripe-server.ts,
 * misbehaving on command) and to the built-in ledger. Real database (SQLite, and PostgreSQL in
 * the postgres project), real executor, confirm and relay; only the provider is faked, at its
 * wire protocol. In every case the provider ends with at most one refund per confirmed
 * cancellation (exactly one unless it declined), of the order's total, carrying the action id.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as confirmRoute } from "@/app/api/actions/[id]/confirm/route";
import { GET as getActionRoute } from "@/app/api/actions/[id]/route";
import { type StripeServer, startStripeServer } from "@/bench/lib/stripe-server";
import {
  claimDueEffects,
  type EffectRow,
  getEffect,
  insertEffects,
  listEffectsForAction,
  recordEffectOutcome,
} from "@/db/queries/effects";
import {
  auditEvents,
  effects,
  orderCancellations,
  orderItems,
  orders,
  refundsLedger,
} from "@/db/schema";
import { confirmAction } from "@/lib/actions/confirm";
import type { RefundPayload } from "@/lib/effects/kinds";
import { ledgerProvider } from "@/lib/effects/providers/ledger";
import { stripeProvider } from "@/lib/effects/providers/stripe";
import { runDueEffects, startRelay, stopRelay } from "@/lib/effects/relay";
import { resetEnv } from "@/lib/env";
import { call, signIn } from "../helpers/http";
import { type Core, newChat, proposeWith, setupCore } from "./action-core/fixtures";

const RELAY_ENV = {
  STRIPE_TIMEOUT_MS: "300",
  EFFECTS_LEASE_SECONDS: "2",
  EFFECTS_RETRY_BASE_MS: "1",
  EFFECTS_RETRY_MAX_MS: "5",
  EFFECTS_MAX_ATTEMPTS: "6",
  EFFECTS_POLL_SECONDS: "3600",
};

let core: Core;
let stripe: StripeServer;
let annaCookie: string;
let nextOrderId = 6000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function useStripe(on: boolean, extra: Record<string, string> = {}) {
  for (const [k, v] of Object.entries({ ...RELAY_ENV, ...extra })) process.env[k] = v;
  if (on) {
    process.env.STRIPE_SECRET_KEY = stripe.secretKey;
    process.env.STRIPE_API_BASE = stripe.url;
  } else {
    delete process.env.STRIPE_SECRET_KEY;
    delete process.env.STRIPE_API_BASE;
  }
  resetEnv();
}

/** A processing order of Anna's with a charge to refund. */
async function processingOrder(total: number): Promise<string> {
  const id = String(nextOrderId++);
  const now = new Date();
  await core.db.insert(orders).values({
    id,
    userId: core.anna,
    status: "processing",
    placedAt: now,
    totalMinor: total,
    currency: "EUR",
    paymentMethod: "Visa •••• 4242",
    paymentRef: `pi_test${id}`,
    version: 1,
    updatedAt: now,
  });
  await core.db
    .insert(orderItems)
    .values({ orderId: id, name: "Kettle", quantity: 1, unitPriceMinor: total });
  return id;
}

/** Proposes and confirms a cancellation the way the chat and the card do. */
async function confirmedCancellation(total = 4500) {
  const orderId = await processingOrder(total);
  const chatId = await newChat(core.db, core.anna);
  const action = await proposeWith("cancel_order", core.anna, chatId, {
    orderId,
    reason: "changed_mind",
    comment: null,
  });
  const done = await confirmAction({ actionId: action.id, userId: core.anna });
  expect(done.action.status).toBe("executed");
  return { actionId: action.id, orderId, total };
}

/** The action's refund (a cancellation also mails the customer: those effects are other kinds). */
async function effectOf(actionId: string): Promise<EffectRow> {
  const rows = (await listEffectsForAction({ actionId })).filter(
    (e) => e.kind === "payment.refund",
  );
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

const SETTLED = new Set(["succeeded", "failed", "needs_attention", "resolved"]);

/** Runs the relay until the action's effect is settled (retries are due within milliseconds). */
async function settle(actionId: string): Promise<EffectRow> {
  for (let i = 0; i < 200; i++) {
    const effect = await effectOf(actionId);
    if (SETTLED.has(effect.status)) {
      // The mails that go with it (the confirm's, the refund's outcome) are sent as well, so a
      // test that then expects nothing due sees nothing due.
      while ((await runDueEffects()) > 0) {}
      return effect;
    }
    const wait = effect.nextAttemptAt.getTime() - Date.now();
    if (wait > 0) await sleep(wait);
    if ((await runDueEffects()) === 0) await sleep(10);
  }
  throw new Error(`effect of ${actionId} never settled`);
}

/** Exactly one attempt at the effect (waiting for its backoff first). */
async function attemptOnce(actionId: string): Promise<EffectRow> {
  const before = await effectOf(actionId);
  const wait = before.nextAttemptAt.getTime() - Date.now();
  if (wait > 0) await sleep(wait + 1);
  // The refund, and on the first pass the confirm's mail as well.
  expect(await runDueEffects()).toBeGreaterThanOrEqual(1);
  const after = await effectOf(actionId);
  expect(after.attempts).toBe(before.attempts + 1);
  return after;
}

const refundsAtStripe = (actionId: string) =>
  stripe.refunds.filter((r) => r.metadata.action_id === actionId);
const posts = (key: string | null = null) =>
  stripe.requests.filter((r) => r.method === "POST" && (key === null || r.key?.startsWith(key)));

async function effectAudit(actionId: string) {
  const rows = await core.db.select().from(auditEvents).where(eq(auditEvents.actionId, actionId));
  return rows
    .filter((e) => e.tool === "effect:payment.refund")
    .map((e) => ({
      status: e.status,
      errorCode: e.errorCode,
      outcome: (e.result as { outcome: string }).outcome,
    }));
}

/**
 * What each attempt asked the provider, in order (the audit's `steps`): staff read these to tell
 * a lookup that found the refund from a second send. A settled attempt names no next one.
 */
async function effectSteps(actionId: string): Promise<string[][]> {
  const rows = await core.db.select().from(auditEvents).where(eq(auditEvents.actionId, actionId));
  return rows
    .filter((e) => e.tool === "effect:payment.refund")
    .sort((a, b) => a.id - b.id)
    .map((e) => {
      const result = e.result as { steps: string[]; status: string; nextAttemptAt: string | null };
      if (result.status !== "pending") expect(result.nextAttemptAt).toBeNull();
      return result.steps;
    });
}

/** The one refund an action should have left at Stripe: its amount and metadata. */
function expectOneStripeRefund(c: { actionId: string; orderId: string; total: number }) {
  const refunds = refundsAtStripe(c.actionId);
  expect(refunds).toHaveLength(1);
  expect(refunds[0]).toMatchObject({
    amount: c.total,
    payment_intent: `pi_test${c.orderId}`,
    metadata: { operation_id: c.actionId, action_id: c.actionId, order_id: c.orderId },
  });
  return refunds[0]!;
}

beforeAll(async () => {
  stripe = await startStripeServer();
  core = await setupCore(RELAY_ENV);
  annaCookie = await signIn("anna@example.com");
});

afterAll(async () => {
  await stopRelay();
  await stripe?.close();
  for (const k of ["STRIPE_SECRET_KEY", "STRIPE_API_BASE", ...Object.keys(RELAY_ENV)])
    delete process.env[k];
  resetEnv();
});

describe("Stripe: the refund of a confirmed cancellation", () => {
  beforeEach(() => useStripe(true));

  it("is stored pending with the confirm, sent once with its idempotency key, and GET /api/actions/{id} follows it", async () => {
    const c = await confirmedCancellation(4500);
    const pending = await effectOf(c.actionId);
    expect(pending).toMatchObject({
      kind: "payment.refund",
      status: "pending",
      attempts: 0,
      payload: {
        orderId: c.orderId,
        paymentRef: `pi_test${c.orderId}`,
        amount: 4500,
        currency: "EUR",
      },
    });
    // Confirm answered without the provider: nothing was sent yet.
    expect(refundsAtStripe(c.actionId)).toHaveLength(0);

    const get = () =>
      call(
        getActionRoute,
        `/api/actions/${c.actionId}`,
        { id: c.actionId },
        { cookie: annaCookie },
      );
    let res = await get();
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id: c.actionId,
      status: "executed",
      result: { orderId: c.orderId, status: "cancelled" },
      // The refund, and the customer's mail about the cancellation.
      effects: expect.arrayContaining([
        expect.objectContaining({
          id: pending.id,
          kind: "payment.refund",
          status: "pending",
          attempts: 0,
        }),
        expect.objectContaining({ kind: "mail.cancellation_confirmed", status: "pending" }),
      ]),
    });

    const done = await settle(c.actionId);
    const refund = expectOneStripeRefund(c);
    expect(done).toMatchObject({ status: "succeeded", attempts: 1, providerRef: refund.id });
    expect(posts(pending.idempotencyKey).map((r) => r.key)).toEqual([pending.idempotencyKey]);
    expect(await effectAudit(c.actionId)).toEqual([
      { status: "success", errorCode: null, outcome: "succeeded" },
    ]);
    expect(await effectSteps(c.actionId)).toEqual([["send:succeeded"]]);
    // The audit event names the mail the refund's outcome enqueued.
    const [event] = (
      await core.db.select().from(auditEvents).where(eq(auditEvents.actionId, c.actionId))
    ).filter((e) => e.tool === "effect:payment.refund");
    expect((event!.result as { followUps?: unknown }).followUps).toEqual(["mail.refund_succeeded"]);
    // The mail names the cancellation the refund is for (its record, by the operation id), to
    // the customer whose cancellation it is.
    const [cancellation] = await core.db
      .select()
      .from(orderCancellations)
      .where(eq(orderCancellations.operationId, c.actionId));
    const mail = (await listEffectsForAction({ actionId: c.actionId })).find(
      (e) => e.kind === "mail.refund_succeeded",
    );
    expect(cancellation?.userId).toBe(core.anna);
    expect(mail?.payload).toMatchObject({
      to: "anna@example.com",
      orderId: c.orderId,
      reference: cancellation!.id,
      amount: 4500,
      currency: "EUR",
    });

    res = await get();
    const refunds = (await res.json()).effects.filter(
      (e: { kind: string }) => e.kind === "payment.refund",
    );
    expect(refunds).toEqual([
      {
        id: pending.id,
        kind: "payment.refund",
        status: "succeeded",
        attempts: 1,
        lastErrorCode: null,
        providerRef: refund.id,
        updatedAt: done.updatedAt.toISOString(),
      },
    ]);
  });

  it("GET /api/actions/{id}: staff see any action, another customer gets 404", async () => {
    const c = await confirmedCancellation();
    const staff = await signIn("staff@example.com");
    const boris = await signIn("boris@example.com");
    const as = (cookie: string) =>
      call(getActionRoute, `/api/actions/${c.actionId}`, { id: c.actionId }, { cookie });
    expect((await as(staff)).status).toBe(200);
    const foreign = await as(boris);
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).error.code).toBe("not_found");
    const unknown = await call(
      getActionRoute,
      "/api/actions/nope",
      { id: "nope" },
      { cookie: boris },
    );
    expect(unknown.status).toBe(404);
    await settle(c.actionId);
  });

  it("a dropped connection is never re-sent by the client: one POST, then the relay looks up (one refund, even when the provider forgot the key)", async () => {
    // stripe-node re-sends a request whose connection closed, even with maxNetworkRetries 0,
    // with the same key; a provider that no longer holds the key then refunds twice.
    const c = await confirmedCancellation(1111);
    stripe.fail("forget_keys_and_drop");
    const first = await attemptOnce(c.actionId);
    expect(first).toMatchObject({
      status: "pending",
      attempts: 1,
      lastErrorCode: "connection_error",
    });
    expect(posts(first.idempotencyKey)).toHaveLength(1);
    expect(refundsAtStripe(c.actionId)).toHaveLength(1);
    const gets = stripe.requests.filter((r) => r.method === "GET").length;
    const done = await settle(c.actionId);
    expect(done).toMatchObject({ status: "succeeded", attempts: 2 });
    // The next request after the unknown outcome was the lookup, and nothing was sent again.
    expect(stripe.requests.filter((r) => r.method === "GET").length).toBe(gets + 1);
    expect(posts(first.idempotencyKey)).toHaveLength(1);
    expect(done.providerRef).toBe(expectOneStripeRefund(c).id);
    expect(await effectAudit(c.actionId)).toEqual([
      { status: "technical_error", errorCode: "connection_error", outcome: "retry" },
      { status: "success", errorCode: null, outcome: "reconciled" },
    ]);
    expect(await effectSteps(c.actionId)).toEqual([["send:indeterminate"], ["lookup:found"]]);
  });

  it("applied, then the connection dropped: the retry finds the refund instead of sending again", async () => {
    const c = await confirmedCancellation(1234);
    stripe.fail("drop_after_apply");
    const first = await attemptOnce(c.actionId);
    expect(first).toMatchObject({
      status: "pending",
      attempts: 1,
      lastErrorCode: "connection_error",
    });
    const done = await settle(c.actionId);
    expect(done).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(done.providerRef).toBe(expectOneStripeRefund(c).id);
    expect(posts(first.idempotencyKey)).toHaveLength(1);
    expect(await effectAudit(c.actionId)).toEqual([
      { status: "technical_error", errorCode: "connection_error", outcome: "retry" },
      { status: "success", errorCode: null, outcome: "reconciled" },
    ]);
    expect(await effectSteps(c.actionId)).toEqual([["send:indeterminate"], ["lookup:found"]]);
  });

  it("applied, then 500 (which Stripe would replay for the key): looked up, not re-sent", async () => {
    const c = await confirmedCancellation(2000);
    stripe.fail("500_after_apply");
    expect(await attemptOnce(c.actionId)).toMatchObject({
      status: "pending",
      lastErrorCode: "http_500",
    });
    expect(await settle(c.actionId)).toMatchObject({ status: "succeeded", attempts: 2 });
    expectOneStripeRefund(c);
    expect(posts((await effectOf(c.actionId)).idempotencyKey)).toHaveLength(1);
  });

  it("applied, connection dropped, and the provider forgot its keys: still one refund", async () => {
    const c = await confirmedCancellation(3100);
    stripe.fail("drop_after_apply");
    await attemptOnce(c.actionId);
    stripe.forgetKeys();
    expect(await settle(c.actionId)).toMatchObject({ status: "succeeded" });
    expectOneStripeRefund(c);
  });

  it("answered after our timeout: the outcome is unknown, the retry reconciles", async () => {
    const c = await confirmedCancellation(999);
    stripe.fail("slow_after_apply");
    expect(await attemptOnce(c.actionId)).toMatchObject({
      status: "pending",
      lastErrorCode: "timeout",
    });
    expect(await settle(c.actionId)).toMatchObject({ status: "succeeded" });
    expectOneStripeRefund(c);
  });

  it.each([
    ["rate_limited", "http_429"],
    ["conflict", "http_409"],
  ] as const)("%s: not final, the relay looks up and then refunds once", async (fault, code) => {
    const c = await confirmedCancellation(fault === "rate_limited" ? 429 : 409);
    stripe.fail(fault);
    expect(await attemptOnce(c.actionId)).toMatchObject({
      status: "pending",
      attempts: 1,
      lastErrorCode: code,
    });
    expect(await settle(c.actionId)).toMatchObject({ status: "succeeded", attempts: 2 });
    expectOneStripeRefund(c);
    expect(await effectAudit(c.actionId)).toEqual([
      { status: "technical_error", errorCode: code, outcome: "retry" },
      { status: "success", errorCode: null, outcome: "succeeded" },
    ]);
    expect(await effectSteps(c.actionId)).toEqual([
      ["send:indeterminate"],
      ["lookup:absent", "send:succeeded"],
    ]);
  });

  it("the lookup is by operation id: another operation's refund on the same payment intent is not ours", async () => {
    const c = await confirmedCancellation(3300);
    const effect = await effectOf(c.actionId);
    // Another operation (say, an earlier partial refund by hand) refunded part of this charge.
    const other = await stripeProvider({
      secretKey: stripe.secretKey,
      apiBase: stripe.url,
      timeoutMs: 2000,
    }).refund(
      { ...(effect.payload as RefundPayload), amount: 100 },
      {
        effectId: "other",
        actionId: "other-operation",
        operationId: "other-operation",
        idempotencyKey: "other-operation-key",
      },
    );
    expect(other.kind).toBe("succeeded");
    // Our first request never arrives: the next attempt looks up, finds only the other one.
    stripe.fail("drop");
    expect(await attemptOnce(c.actionId)).toMatchObject({ lastErrorCode: "connection_error" });
    const done = await settle(c.actionId);
    expect(done).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(done.providerRef).toBe(expectOneStripeRefund(c).id);
    expect(done.providerRef).not.toBe((other as { providerRef: string }).providerRef);
    expect(stripe.refunds.filter((r) => r.payment_intent === `pi_test${c.orderId}`)).toHaveLength(
      2,
    );
  });

  it("declined (400): failed at once, never retried, no refund", async () => {
    const c = await confirmedCancellation(700);
    stripe.fail("decline");
    const done = await settle(c.actionId);
    expect(done).toMatchObject({
      status: "failed",
      attempts: 1,
      lastErrorCode: "charge_already_refunded",
    });
    expect(refundsAtStripe(c.actionId)).toHaveLength(0);
    expect(posts(done.idempotencyKey)).toHaveLength(1);
    expect(await effectAudit(c.actionId)).toEqual([
      { status: "business_error", errorCode: "charge_already_refunded", outcome: "failed" },
    ]);
    expect(await effectSteps(c.actionId)).toEqual([["send:definite"]]);
  });

  it("a hostile error code (a NUL, markup) is kept as a plain token, on PostgreSQL too", async () => {
    const c = await confirmedCancellation(701);
    stripe.declineCode = "card\u0000declined<b>\u202e";
    stripe.fail("decline");
    try {
      expect(await settle(c.actionId)).toMatchObject({
        status: "failed",
        lastErrorCode: "carddeclinedb",
      });
      expect(await effectAudit(c.actionId)).toEqual([
        { status: "business_error", errorCode: "carddeclinedb", outcome: "failed" },
      ]);
    } finally {
      stripe.declineCode = "charge_already_refunded";
    }
  });

  it("down for a while: confirm still answers, the relay retries, and refunds once it is back", async () => {
    stripe.setDown(true);
    try {
      const c = await confirmedCancellation(5150);
      await attemptOnce(c.actionId);
      const second = await attemptOnce(c.actionId);
      expect(second).toMatchObject({
        status: "pending",
        attempts: 2,
        lastErrorCode: "connection_error",
      });
      stripe.setDown(false);
      expect(await settle(c.actionId)).toMatchObject({ status: "succeeded", attempts: 3 });
      expectOneStripeRefund(c);
    } finally {
      stripe.setDown(false);
    }
  });

  it("a retry waits half to all of EFFECTS_RETRY_BASE_MS after the attempt, and the audit says until when", async () => {
    useStripe(true, { EFFECTS_RETRY_BASE_MS: "60000", EFFECTS_RETRY_MAX_MS: "600000" });
    stripe.setDown(true);
    const c = await confirmedCancellation(5151);
    try {
      const before = Date.now();
      await attemptOnce(c.actionId);
      const after = Date.now();
      const pending = await effectOf(c.actionId);
      expect(pending.status).toBe("pending");
      expect(pending.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + 30_000);
      expect(pending.nextAttemptAt.getTime()).toBeLessThanOrEqual(after + 60_000);
      const [event] = (
        await core.db.select().from(auditEvents).where(eq(auditEvents.actionId, c.actionId))
      ).filter((e) => e.tool === "effect:payment.refund");
      expect((event?.result as { nextAttemptAt?: string } | undefined)?.nextAttemptAt).toBe(
        pending.nextAttemptAt.toISOString(),
      );
    } finally {
      stripe.setDown(false);
      useStripe(true);
    }
    // Due now, so no later case meets it waiting: it refunds once.
    const { id } = await effectOf(c.actionId);
    await core.db.update(effects).set({ nextAttemptAt: new Date() }).where(eq(effects.id, id));
    expect(await settle(c.actionId)).toMatchObject({ status: "succeeded", attempts: 2 });
    expectOneStripeRefund(c);
  });

  it("a stored 500 without a refund: after the lookup finds nothing, a new key gets through", async () => {
    const c = await confirmedCancellation(4321);
    stripe.fail("500_without_apply");
    const first = await attemptOnce(c.actionId);
    expect(first).toMatchObject({ status: "pending", lastErrorCode: "http_500" });
    // Same key again: Stripe replays its stored 500; the key is then retired.
    const second = await attemptOnce(c.actionId);
    expect(second.status).toBe("pending");
    expect(second.idempotencyKey).not.toBe(first.idempotencyKey);
    expect(second.idempotencyKey.startsWith(first.idempotencyKey)).toBe(true);
    expect(await settle(c.actionId)).toMatchObject({ status: "succeeded", attempts: 3 });
    expectOneStripeRefund(c);
  });

  it("still unknown after EFFECTS_MAX_ATTEMPTS: needs_attention, no refund, and it stays so", async () => {
    useStripe(true, { EFFECTS_MAX_ATTEMPTS: "3" });
    stripe.setDown(true);
    try {
      const c = await confirmedCancellation(888);
      expect(await settle(c.actionId)).toMatchObject({
        status: "needs_attention",
        attempts: 3,
        lastErrorCode: "connection_error",
      });
      stripe.setDown(false);
      expect(await runDueEffects()).toBe(0);
      expect(refundsAtStripe(c.actionId)).toHaveLength(0);
      expect((await effectAudit(c.actionId)).map((e) => e.outcome)).toEqual([
        "retry",
        "retry",
        "needs_attention",
      ]);
      // After the first unknown outcome each attempt only asks; an unknown answer sends nothing.
      expect(await effectSteps(c.actionId)).toEqual([
        ["send:indeterminate"],
        ["lookup:indeterminate"],
        ["lookup:indeterminate"],
      ]);
    } finally {
      stripe.setDown(false);
    }
  });

  it("a relay that died mid-call: its lease lapses, another relay looks up and records one refund", async () => {
    const c = await confirmedCancellation(2500);
    const now = new Date();
    // The dead relay claimed the effect and its request reached Stripe; then it was killed.
    const claimed = (
      await claimDueEffects({ now, owner: "dead", leaseUntil: now, limit: 10 })
    ).find((e) => e.kind === "payment.refund");
    expect(claimed?.actionId).toBe(c.actionId);
    const provider = stripeProvider({
      secretKey: stripe.secretKey,
      apiBase: stripe.url,
      timeoutMs: 2000,
    });
    const sent = await provider.refund(claimed!.payload as never, {
      effectId: claimed!.id,
      actionId: c.actionId,
      operationId: c.actionId,
      idempotencyKey: claimed!.idempotencyKey,
    });
    expect(sent.kind).toBe("succeeded");
    // Another relay takes the lapsed lease over.
    expect(await settle(c.actionId)).toMatchObject({ status: "succeeded", attempts: 2 });
    expectOneStripeRefund(c);
    expect(posts(claimed!.idempotencyKey)).toHaveLength(1);
    // The dead relay's late record changes nothing: it no longer holds the lease.
    expect(
      await recordEffectOutcome({
        id: claimed!.id,
        owner: "dead",
        now: new Date(),
        set: { status: "failed" },
      }),
    ).toBeNull();
    expect((await effectOf(c.actionId)).status).toBe("succeeded");
  });

  it("only the lease holder records: a relay whose lease lapsed and was taken over changes nothing", async () => {
    const c = await confirmedCancellation(600);
    const t0 = new Date();
    const mine = (
      await claimDueEffects({ now: t0, owner: "slow", leaseUntil: t0, limit: 10 })
    ).find((e) => e.actionId === c.actionId)!;
    const t1 = new Date(t0.getTime() + 1);
    const theirs = (
      await claimDueEffects({
        now: t1,
        owner: "fresh",
        leaseUntil: new Date(t1.getTime() + 60_000),
        limit: 10,
      })
    ).find((e) => e.actionId === c.actionId);
    expect(theirs).toMatchObject({ id: mine.id, status: "in_flight", attempts: 2 });
    expect(
      await recordEffectOutcome({
        id: mine.id,
        owner: "slow",
        now: new Date(),
        set: { status: "failed", lastErrorCode: "late" },
      }),
    ).toBeNull();
    expect(await effectOf(c.actionId)).toMatchObject({ status: "in_flight", leaseOwner: "fresh" });
    // The holder records; then the effect is settled for good (no refund sent here: this is the
    // outbox's lease rule alone).
    expect(
      await recordEffectOutcome({
        id: mine.id,
        owner: "fresh",
        now: new Date(),
        set: { status: "failed", lastErrorCode: "test" },
      }),
    ).toMatchObject({ status: "failed" });
  });

  it("a commit wakes the relay at once: no poll needed (EFFECTS_POLL_SECONDS is an hour here)", async () => {
    startRelay();
    try {
      const orderId = await processingOrder(1500);
      const chatId = await newChat(core.db, core.anna);
      const action = await proposeWith("cancel_order", core.anna, chatId, {
        orderId,
        reason: "found_cheaper",
        comment: null,
      });
      const res = await call(
        confirmRoute,
        `/api/actions/${action.id}/confirm`,
        { id: action.id },
        { cookie: annaCookie, method: "POST" },
      );
      expect(res.status).toBe(200);
      let effect = await effectOf(action.id);
      while (!SETTLED.has(effect.status)) {
        await sleep(20);
        effect = await effectOf(action.id);
      }
      expect(effect.status).toBe("succeeded");
      expectOneStripeRefund({ actionId: action.id, orderId, total: 1500 });
    } finally {
      await stopRelay();
    }
  });
});

describe("ledger (no STRIPE_SECRET_KEY): the same lifecycle in our own database", () => {
  beforeEach(() => useStripe(false));

  const ledgerRows = (actionId: string) =>
    core.db.select().from(refundsLedger).where(eq(refundsLedger.actionId, actionId));

  it("pending with the confirm, one ledger refund after the relay, with the action id", async () => {
    const before = stripe.requests.length;
    const c = await confirmedCancellation(4500);
    expect(await effectOf(c.actionId)).toMatchObject({ status: "pending", attempts: 0 });
    expect(await ledgerRows(c.actionId)).toHaveLength(0);
    const done = await settle(c.actionId);
    const rows = await ledgerRows(c.actionId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      orderId: c.orderId,
      operationId: c.actionId,
      paymentRef: `pi_test${c.orderId}`,
      amountMinor: 4500,
      currency: "EUR",
      idempotencyKey: done.idempotencyKey,
    });
    expect(done).toMatchObject({ status: "succeeded", attempts: 1, providerRef: rows[0]!.id });
    expect(await effectAudit(c.actionId)).toEqual([
      { status: "success", errorCode: null, outcome: "succeeded" },
    ]);
    expect(stripe.requests.length).toBe(before);
  });

  it("a relay that died after the ledger write: the next one finds it and records it once", async () => {
    const c = await confirmedCancellation(1999);
    const now = new Date();
    const claimed = (
      await claimDueEffects({ now, owner: "dead", leaseUntil: now, limit: 10 })
    ).find((e) => e.kind === "payment.refund");
    await ledgerProvider.refund(claimed!.payload as never, {
      effectId: claimed!.id,
      actionId: c.actionId,
      operationId: c.actionId,
      idempotencyKey: claimed!.idempotencyKey,
    });
    expect(await settle(c.actionId)).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(await ledgerRows(c.actionId)).toHaveLength(1);
    expect((await effectAudit(c.actionId)).map((e) => e.outcome)).toEqual(["reconciled"]);
    expect(await effectSteps(c.actionId)).toEqual([["lookup:found"]]);
  });

  it("a stored effect of no known kind, or with a payload outside its schema, fails without a provider call", async () => {
    const now = new Date();
    const row = (id: string, kind: string, payload: unknown) => ({
      id,
      actionId: `act-${id}`,
      kind,
      idempotencyKey: `key-${id}`,
      payload,
      nextAttemptAt: now,
      updatedAt: now,
    });
    await insertEffects([
      row("ef-proto", "constructor", {}),
      row("ef-bad", "payment.refund", { orderId: "1", amount: -5 }),
    ]);
    for (let i = 0; i < 5 && (await runDueEffects()) > 0; i++) {}
    expect(await getEffect({ id: "ef-proto" })).toMatchObject({
      status: "failed",
      lastErrorCode: "unknown_kind",
    });
    expect(await getEffect({ id: "ef-bad" })).toMatchObject({
      status: "failed",
      lastErrorCode: "invalid_payload",
    });
  });

  it("a claim takes at most its limit, oldest first; the next claim takes the rest", async () => {
    // Older than anything another test may have left due, so these five are claimed first.
    const t0 = new Date("2000-01-01T00:00:00Z");
    const rows = [0, 1, 2, 3, 4].map((i) => ({
      id: `ef-limit-${i}`,
      actionId: `act-limit-${i}`,
      kind: "payment.refund",
      idempotencyKey: `key-limit-${i}`,
      payload: {},
      nextAttemptAt: new Date(t0.getTime() + i),
      updatedAt: t0,
    }));
    await insertEffects(rows);
    const now = new Date();
    const lease = new Date(now.getTime() + 60_000);
    const first = await claimDueEffects({ now, owner: "a", leaseUntil: lease, limit: 2 });
    expect(first.map((r) => r.id).sort()).toEqual(["ef-limit-0", "ef-limit-1"]);
    const second = await claimDueEffects({ now, owner: "b", leaseUntil: lease, limit: 3 });
    expect(second.map((r) => r.id).sort()).toEqual(["ef-limit-2", "ef-limit-3", "ef-limit-4"]);
    const third = await claimDueEffects({ now, owner: "c", leaseUntil: lease, limit: 10 });
    expect(third.filter((r) => r.id.startsWith("ef-limit-"))).toEqual([]);
  });

  it("sending the same key twice keeps one ledger row", async () => {
    const c = await confirmedCancellation(321);
    const effect = await effectOf(c.actionId);
    const ref = {
      effectId: effect.id,
      actionId: c.actionId,
      operationId: c.actionId,
      idempotencyKey: effect.idempotencyKey,
    };
    const a = await ledgerProvider.refund(effect.payload as never, ref);
    const b = await ledgerProvider.refund(effect.payload as never, ref);
    expect(a).toEqual(b);
    expect(await ledgerRows(c.actionId)).toHaveLength(1);
    await settle(c.actionId);
    expect(await ledgerRows(c.actionId)).toHaveLength(1);
  });
});
