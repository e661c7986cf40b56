/**
 * The relay's attempts at effects it cannot simply send, and what each attempt leaves for staff:
 * a write at a store that is not connected, a webhook that is not configured, a fresh plan with
 * no planner registered, an effect past its time budget, a provider whose answers are replayed,
 * hostile or missing, and the integration canary's verdicts. Each attempt's audit event is read
 * as the audit page shows it: who (the action's customer and chat), what (the effect, its kind and
 * attempt), what the provider was asked, and what was enqueued with the outcome. Real database,
 * confirm-less effects stored as a write tool's commit stores them; only Stripe is faked, at its
 * wire protocol (bench/lib/stripe-server.ts).
 */
import { randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type StripeServer, startStripeServer } from "@/bench/lib/stripe-server";
import { claimEffectById, getEffectCanary } from "@/db/queries/effect-canaries";
import {
  type EffectRow,
  getEffect,
  insertEffects,
  listEffectsForAction,
  recordEffectOutcome,
} from "@/db/queries/effects";
import { effects } from "@/db/schema";
import { configFingerprint } from "@/lib/effects/canary";
import type { EffectKind } from "@/lib/effects/kinds";
import { stripeProvider } from "@/lib/effects/providers/stripe";
import { runDueEffects, startRelay, stopRelay } from "@/lib/effects/relay";
import { replanner } from "@/lib/effects/replan";
import { wakeRelay } from "@/lib/effects/signal";
import { resetEnv } from "@/lib/env";
import { setLogDestination } from "@/lib/log";
import { sqliteClient } from "../helpers/db";
import { auditFor, type Core, newChat, propose, setupCore } from "./action-core/fixtures";

const ENV = {
  STRIPE_TIMEOUT_MS: "300",
  EFFECTS_LEASE_SECONDS: "2",
  EFFECTS_RETRY_BASE_MS: "1",
  EFFECTS_RETRY_MAX_MS: "5",
  EFFECTS_MAX_ATTEMPTS: "6",
  EFFECTS_MAX_AGE_SECONDS: "86400",
  EFFECTS_POLL_SECONDS: "3600",
  // Off unless a case turns it on: a first Stripe configuration would otherwise start a canary.
  EFFECTS_CANARY_COUNT: "0",
};

let core: Core;
const servers: StripeServer[] = [];

function useEnv(extra: Record<string, string> = {}) {
  for (const [k, v] of Object.entries({ ...ENV, ...extra })) process.env[k] = v;
  resetEnv();
}

/** Points the payments provider at a new loopback Stripe (a new configuration). */
async function newStripe(): Promise<StripeServer> {
  const s = await startStripeServer();
  servers.push(s);
  process.env.STRIPE_SECRET_KEY = s.secretKey;
  process.env.STRIPE_API_BASE = s.url;
  resetEnv();
  return s;
}

function noStripe() {
  delete process.env.STRIPE_SECRET_KEY;
  delete process.env.STRIPE_API_BASE;
  resetEnv();
}

/** An action of Anna's in a chat of her own (a return's proposal), to hang effects on. */
async function annasAction(): Promise<{ actionId: string; chatId: string }> {
  const chatId = await newChat(core.db, core.anna);
  const action = await propose(core.anna, chatId, { orderId: "7718", reason: "damaged" });
  return { actionId: action.id, chatId };
}

/** An effect as a write tool's commit stores it: pending, due now, never attempted. */
async function stored(
  actionId: string,
  kind: EffectKind,
  payload: unknown,
  extra: Partial<
    Pick<EffectRow, "attempts" | "createdAt" | "retriedAt" | "lastErrorCode" | "nextAttemptAt">
  > = {},
): Promise<EffectRow> {
  const now = new Date();
  const id = `ef-${randomUUID()}`;
  const [row] = await insertEffects([
    {
      id,
      actionId,
      kind,
      idempotencyKey: `key-${id}`,
      payload,
      nextAttemptAt: now,
      updatedAt: now,
      ...extra,
    },
  ]);
  return row!;
}

/** The audit events of an effect's attempts, oldest first, as the audit page reads them. */
async function attempts(effect: EffectRow) {
  return (await auditFor(core.db, effect.actionId))
    .filter((e) => (e.arguments as { effectId?: string } | null)?.effectId === effect.id)
    .map((e) => ({
      ...e,
      result: e.result as Record<string, unknown> & { steps: string[]; canary?: unknown },
    }));
}

const drain = async () => {
  for (let i = 0; i < 50 && (await runDueEffects()) > 0; i++) {}
};

const waitDue = async (id: string) => {
  const e = await getEffect({ id });
  const wait = (e?.nextAttemptAt.getTime() ?? 0) - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait + 1));
};

/** Until the effect is settled, or a few seconds: a poll would take an hour. */
async function settledSoon(id: string): Promise<EffectRow | null> {
  for (let i = 0; i < 250; i++) {
    const e = await getEffect({ id });
    if (e && e.status !== "pending" && e.status !== "in_flight") return e;
    await new Promise((r) => setTimeout(r, 20));
  }
  return getEffect({ id });
}

const mail = (to = "anna@example.com") => ({
  to,
  locale: "en" as const,
  orderId: "7718",
  reference: "CN-TEST",
  amount: 1500,
  currency: "EUR",
});
const address = {
  name: "Anna",
  line1: "Hauptstr. 1",
  line2: null,
  postalCode: "10115",
  city: "Berlin",
  country: "DE",
};
const storeWrite = {
  backend: "medusa",
  storeOrderRef: "order_01TEST",
  orderId: "7718",
  expectedUpdatedAt: "2026-06-01T10:00:00.000Z",
};
const STORE_PAYLOADS = {
  "store.cancel_order": {
    ...storeWrite,
    confirmationMail: { kind: "mail.cancellation_confirmed", payload: mail() },
  },
  "store.create_return": {
    ...storeWrite,
    confirmationMail: { kind: "mail.return_confirmed", payload: mail() },
  },
  "store.change_address": { ...storeWrite, to: address },
  "store.receive_return": {
    backend: "medusa",
    storeOrderRef: "order_01TEST",
    orderId: "7718",
    returnId: "RR-TEST",
    amount: 1500,
    currency: "EUR",
  },
} as const;
const refund = (n: number) => ({
  orderId: "7718",
  paymentRef: `pi_relay${n}`,
  amount: n,
  currency: "EUR",
});

beforeAll(async () => {
  core = await setupCore(ENV);
  useEnv();
});

afterEach(() => {
  vi.useRealTimers();
  for (const s of servers) {
    s.clearFaults();
    s.setDown(false);
    s.onApply = undefined;
  }
  noStripe();
  useEnv();
});

afterAll(async () => {
  await stopRelay();
  for (const s of servers) await s.close();
  for (const k of Object.keys(ENV)) delete process.env[k];
  resetEnv();
});

describe("nowhere to send it: a store that is not connected, a webhook not configured", () => {
  it.each(Object.keys(STORE_PAYLOADS) as (keyof typeof STORE_PAYLOADS)[])(
    "%s on the built-in store fails for good, and the attempt's audit names the customer, the chat and the effect",
    async (kind) => {
      const { actionId, chatId } = await annasAction();
      const effect = await stored(actionId, kind, STORE_PAYLOADS[kind]);
      const started = performance.now();
      await drain();
      const elapsed = performance.now() - started;
      expect(await getEffect({ id: effect.id })).toMatchObject({
        status: "failed",
        attempts: 1,
        lastErrorCode: "store_not_configured",
      });
      const [event, ...more] = await attempts(effect);
      expect(more).toEqual([]);
      expect(event).toMatchObject({
        tool: `effect:${kind}`,
        access: "write",
        status: "business_error",
        errorCode: "store_not_configured",
        userId: core.anna,
        chatId,
        actionId,
        arguments: { effectId: effect.id, kind, attempt: 1 },
        result: {
          outcome: "failed",
          effectId: effect.id,
          status: "failed",
          attempt: 1,
          steps: ["send:definite"],
          providerRef: null,
          nextAttemptAt: null,
          relay: expect.stringMatching(/.:\d+$/),
        },
      });
      // The attempt's duration, not some other clock's.
      expect(event!.durationMs).toBeGreaterThanOrEqual(0);
      expect(event!.durationMs).toBeLessThanOrEqual(Math.ceil(elapsed));
      const kinds = (await listEffectsForAction({ actionId })).map((e) => e.kind);
      if (kind === "store.receive_return") {
        // The store's refund of the received return did not happen: the customer is told.
        expect(event!.result.followUps).toEqual(["mail.refund_failed"]);
        expect(kinds.sort()).toEqual(["mail.refund_failed", kind]);
      } else {
        // A refused write never sends the confirmation mail it carries, and enqueues nothing.
        expect(event!.result).not.toHaveProperty("followUps");
        expect(event!.result).not.toHaveProperty("releasedBusinessKey");
        expect(kinds).toEqual([kind]);
      }
    },
  );

  it("an attempt after one whose relay died asks the store first: no store answers for good, and nothing is sent", async () => {
    const { actionId } = await annasAction();
    // The dead relay's claim counted the first attempt.
    const effect = await stored(
      actionId,
      "store.cancel_order",
      STORE_PAYLOADS["store.cancel_order"],
      {
        attempts: 1,
      },
    );
    await drain();
    expect(await getEffect({ id: effect.id })).toMatchObject({
      status: "failed",
      attempts: 2,
      lastErrorCode: "store_not_configured",
    });
    const [event] = await attempts(effect);
    expect(event!.result.steps).toEqual(["lookup:definite"]);
    expect(event!.arguments).toEqual({
      effectId: effect.id,
      kind: "store.cancel_order",
      attempt: 2,
    });
  });

  it.each([
    [
      "warehouse.address_changed",
      {
        webhookId: "msg_relay_change",
        changeId: "AC-RELAY",
        orderId: "7718",
        from: null,
        to: address,
        changedAt: "2026-06-01T10:00:00.000Z",
      },
    ],
    [
      "alert.raised",
      {
        webhookId: "msg_relay_alert",
        alertId: "al-relay",
        kind: "drift",
        at: "2026-06-01T10:00:00.000Z",
        fingerprint: null,
        detail: {},
      },
    ],
  ] as const)(
    "%s with no webhook configured fails for good, sent or looked up",
    async (kind, payload) => {
      const { actionId } = await annasAction();
      const fresh = await stored(actionId, kind, payload);
      const { actionId: other } = await annasAction();
      const retried = await stored(other, kind, payload, { attempts: 1 });
      await drain();
      for (const e of [fresh, retried])
        expect(await getEffect({ id: e.id })).toMatchObject({
          status: "failed",
          lastErrorCode: "webhook_not_configured",
        });
      expect((await attempts(fresh)).map((e) => e.result.steps)).toEqual([["send:definite"]]);
      expect((await attempts(retried)).map((e) => e.result.steps)).toEqual([["lookup:definite"]]);
    },
  );
});

describe("unknown outcomes: retried, within the time budget", () => {
  const replan = (id: string) => ({
    tool: "cancel_order",
    refusedEffectId: id,
    code: "order_changed_at_store",
  });

  it("a fresh plan with no planner registered waits and is retried (a process set up wrongly, not a refusal)", async () => {
    expect(replanner()).toBeNull();
    const { actionId, chatId } = await annasAction();
    const effect = await stored(actionId, "action.replan", replan("ef-refused-1"));
    expect(await runDueEffects()).toBeGreaterThanOrEqual(1);
    const row = await getEffect({ id: effect.id });
    expect(row).toMatchObject({
      status: "pending",
      attempts: 1,
      lastErrorCode: "replanner_not_registered",
    });
    const [event] = await attempts(effect);
    expect(event).toMatchObject({
      tool: "effect:action.replan",
      status: "technical_error",
      errorCode: "replanner_not_registered",
      userId: core.anna,
      chatId,
      result: {
        outcome: "retry",
        status: "pending",
        steps: ["send:indeterminate"],
        nextAttemptAt: row!.nextAttemptAt.toISOString(),
      },
    });
    expect(event!.result).not.toHaveProperty("followUps");
  });

  it("past EFFECTS_MAX_AGE_SECONDS since it was stored, an unknown outcome needs a person at once; staff's retry starts the budget again", async () => {
    useEnv({ EFFECTS_MAX_AGE_SECONDS: "60" });
    const old = new Date(Date.now() - 61_000);
    const { actionId } = await annasAction();
    const aged = await stored(actionId, "action.replan", replan("ef-refused-2"), {
      createdAt: old,
    });
    const { actionId: other } = await annasAction();
    const retried = await stored(other, "action.replan", replan("ef-refused-3"), {
      createdAt: old,
      retriedAt: new Date(),
    });
    await runDueEffects();
    expect(await getEffect({ id: aged.id })).toMatchObject({
      status: "needs_attention",
      attempts: 1,
      lastErrorCode: "replanner_not_registered",
    });
    expect((await attempts(aged)).map((e) => e.result.outcome)).toEqual(["needs_attention"]);
    expect(await getEffect({ id: retried.id })).toMatchObject({ status: "pending", attempts: 1 });
  });

  it("the budget ends at exactly EFFECTS_MAX_AGE_SECONDS", async () => {
    useEnv({ EFFECTS_MAX_AGE_SECONDS: "60" });
    // The clock stands still during the pass, so the attempt is exactly 60 s after the store.
    const now = new Date(Math.ceil(Date.now() / 1000) * 1000 + 1000);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(now);
    const { actionId } = await annasAction();
    const effect = await stored(actionId, "action.replan", replan("ef-refused-4"), {
      createdAt: new Date(now.getTime() - 60_000),
    });
    await runDueEffects();
    vi.useRealTimers();
    expect(await getEffect({ id: effect.id })).toMatchObject({ status: "needs_attention" });
  });
});

describe("Stripe: lookups, replays and what a provider's codes become", () => {
  it("a refund still unknown enqueues no mail; the next attempt's lookup fails too, and nothing is sent", async () => {
    const stripe = await newStripe();
    const { actionId } = await annasAction();
    const effect = await stored(actionId, "payment.refund", refund(4101));
    stripe.fail("rate_limited");
    await runDueEffects();
    expect(await getEffect({ id: effect.id })).toMatchObject({
      status: "pending",
      lastErrorCode: "http_429",
    });
    stripe.setDown(true);
    await waitDue(effect.id);
    const before = stripe.requests.length;
    await runDueEffects();
    // Only the lookup reached the provider: an unknown answer to it sends nothing.
    expect(stripe.requests.slice(before).map((r) => r.method)).toEqual(["GET"]);
    expect(await getEffect({ id: effect.id })).toMatchObject({
      status: "pending",
      attempts: 2,
      lastErrorCode: "connection_error",
    });
    const events = await attempts(effect);
    expect(events.map((e) => e.result.steps)).toEqual([
      ["send:indeterminate"],
      ["lookup:indeterminate"],
    ]);
    for (const e of events) expect(e.result).not.toHaveProperty("followUps");
    // No refund ended yet: no mail about one.
    expect((await listEffectsForAction({ actionId })).map((e) => e.kind)).toEqual([
      "payment.refund",
    ]);
  });

  it("a replayed server error keeps its key unless a lookup said the provider holds nothing", async () => {
    const stripe = await newStripe();
    const { actionId } = await annasAction();
    const effect = await stored(actionId, "payment.refund", refund(4202));
    // Something already sent this key and got a 500 (which Stripe replays for the key): the
    // first attempt asks nothing, so it cannot know the provider holds no refund under it.
    stripe.fail("500_without_apply");
    const ref = {
      effectId: effect.id,
      actionId,
      operationId: actionId,
      idempotencyKey: effect.idempotencyKey,
    };
    const provider = stripeProvider({
      secretKey: stripe.secretKey,
      apiBase: stripe.url,
      timeoutMs: 2000,
    });
    expect(await provider.refund(refund(4202), ref)).toMatchObject({ kind: "indeterminate" });
    await runDueEffects();
    const first = await getEffect({ id: effect.id });
    expect(first).toMatchObject({ status: "pending", lastErrorCode: "http_500" });
    expect(first!.idempotencyKey).toBe(effect.idempotencyKey);
    // The next attempt looks up (absent), gets the replay again, and retires the key.
    await waitDue(effect.id);
    await runDueEffects();
    const second = await getEffect({ id: effect.id });
    expect(second!.idempotencyKey).not.toBe(effect.idempotencyKey);
    await waitDue(effect.id);
    await drain();
    expect(await getEffect({ id: effect.id })).toMatchObject({ status: "succeeded", attempts: 3 });
    expect(stripe.refunds.filter((r) => r.metadata.operation_id === actionId)).toHaveLength(1);
  });

  it("a provider's code is kept short (100 characters), and one with nothing printable reads `unknown`", async () => {
    const stripe = await newStripe();
    const long = await stored((await annasAction()).actionId, "payment.refund", refund(4303));
    stripe.declineCode = `declined_${"x".repeat(200)}`;
    stripe.fail("decline");
    await runDueEffects();
    const row = await getEffect({ id: long.id });
    expect(row).toMatchObject({ status: "failed" });
    expect(row!.lastErrorCode).toBe(`declined_${"x".repeat(91)}`);
    expect((await attempts(long))[0]!.errorCode).toBe(row!.lastErrorCode);

    const blank = await stored((await annasAction()).actionId, "payment.refund", refund(4304));
    stripe.declineCode = "<> !";
    stripe.fail("decline");
    await runDueEffects();
    expect(await getEffect({ id: blank.id })).toMatchObject({
      status: "failed",
      lastErrorCode: "unknown",
    });
    stripe.declineCode = "charge_already_refunded";
  });
});

describe("under the integration canary: each attempt's audit says what the canary made of it", () => {
  const canaryOf = async (stripe: StripeServer) =>
    getEffectCanary({
      kind: "payment.refund",
      fingerprint: configFingerprint("stripe", [stripe.secretKey, stripe.url]),
    });

  it("waiting, confirmed by a lookup, reconciled, held; the held kind's rest is held with an audit of its own", async () => {
    await drain();
    useEnv({ EFFECTS_CANARY_COUNT: "3" });
    const stripe = await newStripe();
    const fingerprint = configFingerprint("stripe", [stripe.secretKey, stripe.url]);
    const a = await annasAction();
    const first = await stored(a.actionId, "payment.refund", refund(5101));
    // Another kind is not held back by the canary: it goes in the same pass.
    const mailed = await stored(a.actionId, "mail.return_confirmed", mail());
    const second = await stored((await annasAction()).actionId, "payment.refund", refund(5102));

    // Applied, then a 500: unknown, so the canary waits for it.
    stripe.fail("500_after_apply");
    await runDueEffects();
    expect(await getEffect({ id: mailed.id })).toMatchObject({ status: "succeeded" });
    expect(await getEffect({ id: first.id })).toMatchObject({ status: "pending" });
    expect(await getEffect({ id: second.id })).toMatchObject({ status: "pending", attempts: 0 });
    const canary = { provider: "stripe", fingerprint, required: 3 };
    expect((await attempts(first)).at(-1)!.result).toMatchObject({
      outcome: "retry",
      canary: { ...canary, verdict: "waiting", confirmed: 0, status: "running" },
    });

    // Its retry finds the refund: reconciled, which confirms it.
    await waitDue(first.id);
    await runDueEffects();
    expect(await getEffect({ id: first.id })).toMatchObject({ status: "succeeded" });
    expect((await attempts(first)).at(-1)!.result).toMatchObject({
      outcome: "reconciled",
      steps: ["lookup:found"],
      canary: { ...canary, verdict: "confirmed", confirmed: 1, status: "running" },
    });
    expect(await canaryOf(stripe)).toMatchObject({ status: "running", confirmed: 1 });

    // The next one is sent, then confirmed by a lookup.
    await runDueEffects();
    expect(await getEffect({ id: second.id })).toMatchObject({ status: "succeeded" });
    expect((await attempts(second)).at(-1)!.result).toMatchObject({
      outcome: "succeeded",
      steps: ["send:succeeded", "canary-lookup:found"],
      canary: { ...canary, verdict: "confirmed", confirmed: 2, status: "running" },
    });

    // A refusal holds the canary.
    const third = await stored((await annasAction()).actionId, "payment.refund", refund(5103));
    stripe.fail("decline");
    await runDueEffects();
    expect(await getEffect({ id: third.id })).toMatchObject({ status: "failed" });
    expect((await attempts(third)).at(-1)!.result).toMatchObject({
      outcome: "failed",
      canary: { ...canary, verdict: "held", confirmed: 2, status: "held" },
    });

    // What comes after it goes to staff instead, each with an audit event saying why.
    const b = await annasAction();
    const fourth = await stored(b.actionId, "payment.refund", refund(5104));
    const posts = stripe.requests.filter((r) => r.method === "POST").length;
    await runDueEffects();
    expect(stripe.requests.filter((r) => r.method === "POST")).toHaveLength(posts);
    expect(await getEffect({ id: fourth.id })).toMatchObject({
      status: "needs_attention",
      lastErrorCode: "canary_held",
    });
    expect(await attempts(fourth)).toEqual([
      expect.objectContaining({
        tool: "effect:payment.refund",
        access: "write",
        status: "technical_error",
        errorCode: "canary_held",
        userId: core.anna,
        chatId: b.chatId,
        actionId: b.actionId,
        arguments: { effectId: fourth.id, kind: "payment.refund", attempt: 0 },
        result: {
          outcome: "needs_attention",
          effectId: fourth.id,
          status: "needs_attention",
          attempt: 0,
          steps: [],
          relay: expect.any(String),
          canary: { ...canary, verdict: "held", confirmed: 2, status: "held" },
        },
      }),
    ]);

    // An effect no chat action made (staff's receipt of a return refunds so) is held all the same.
    const unowned = await stored(`op-${randomUUID()}`, "payment.refund", refund(5105));
    await runDueEffects();
    expect(await getEffect({ id: unowned.id })).toMatchObject({
      status: "needs_attention",
      lastErrorCode: "canary_held",
    });
    expect(await attempts(unowned)).toEqual([
      expect.objectContaining({ errorCode: "canary_held", userId: null, chatId: null }),
    ]);
  });

  it("a success the lookup cannot show is held, and the audit says the lookup found nothing", async () => {
    await drain();
    useEnv({ EFFECTS_CANARY_COUNT: "3" });
    const stripe = await newStripe();
    const effect = await stored((await annasAction()).actionId, "payment.refund", refund(5201));
    stripe.onApply = () => {
      stripe.refunds.splice(0);
    };
    await runDueEffects();
    expect(await getEffect({ id: effect.id })).toMatchObject({
      status: "needs_attention",
      lastErrorCode: "canary_unconfirmed",
    });
    expect((await attempts(effect)).at(-1)).toMatchObject({
      status: "technical_error",
      errorCode: "canary_unconfirmed",
      result: {
        outcome: "needs_attention",
        steps: ["send:succeeded", "canary-lookup:absent"],
        canary: { verdict: "held", confirmed: 0, status: "held" },
      },
    });
  });

  it("while the canary's effect waits for its retry, the next of its kind is not released", async () => {
    await drain();
    useEnv({
      EFFECTS_CANARY_COUNT: "3",
      EFFECTS_RETRY_BASE_MS: "600000",
      EFFECTS_RETRY_MAX_MS: "600000",
    });
    const stripe = await newStripe();
    const first = await stored((await annasAction()).actionId, "payment.refund", refund(5301));
    const next = await stored((await annasAction()).actionId, "payment.refund", refund(5302));
    stripe.fail("rate_limited");
    await runDueEffects();
    await runDueEffects();
    await runDueEffects();
    expect(await getEffect({ id: first.id })).toMatchObject({ status: "pending", attempts: 1 });
    expect(await getEffect({ id: next.id })).toMatchObject({ status: "pending", attempts: 0 });
    expect(stripe.requests.map((r) => r.method)).toEqual(["POST"]);
    expect(await canaryOf(stripe)).toMatchObject({ status: "running", currentEffectId: first.id });
    // Due now, so the rest of the file meets it settled.
    await core.db
      .update(effects)
      .set({ nextAttemptAt: new Date() })
      .where(eq(effects.id, first.id));
    useEnv({ EFFECTS_CANARY_COUNT: "3" });
    process.env.STRIPE_SECRET_KEY = stripe.secretKey;
    process.env.STRIPE_API_BASE = stripe.url;
    resetEnv();
    await drain();
    expect(await getEffect({ id: first.id })).toMatchObject({ status: "succeeded" });
  });
});

describe("recording an attempt", () => {
  const lines: string[] = [];
  beforeAll(() => {
    setLogDestination(
      new Writable({
        write(chunk, _enc, done) {
          lines.push(...String(chunk).split("\n").filter(Boolean));
          done();
        },
      }),
    );
  });
  afterAll(() => setLogDestination(undefined));
  const failures = () =>
    lines.map((l) => JSON.parse(l)).filter((l) => l.msg === "effect attempt failed");

  it("a relay whose lease was taken over during the call records nothing: the other relay's attempt decides", async () => {
    await drain();
    const stripe = await newStripe();
    const { actionId } = await annasAction();
    const effect = await stored(actionId, "payment.refund", refund(6101));
    // While the provider applies our refund, our lease lapses and another relay claims it.
    let taken: EffectRow | null = null;
    stripe.onApply = async () => {
      const later = new Date(Date.now() + 60_000);
      taken = await claimEffectById({
        id: effect.id,
        now: later,
        owner: "other-relay",
        leaseUntil: new Date(later.getTime() + 60_000),
      });
    };
    const logged = failures().length;
    await runDueEffects();
    stripe.onApply = undefined;
    expect(taken).toMatchObject({ id: effect.id });
    expect(await getEffect({ id: effect.id })).toMatchObject({
      status: "in_flight",
      leaseOwner: "other-relay",
      attempts: 2,
    });
    expect(await attempts(effect)).toEqual([]);
    // Nothing went wrong: nothing is logged as a failure.
    expect(failures()).toHaveLength(logged);
    expect(
      await recordEffectOutcome({
        id: effect.id,
        owner: "other-relay",
        now: new Date(),
        set: { status: "succeeded", lastErrorCode: null },
      }),
    ).toMatchObject({ status: "succeeded" });
  });

  it("a pass the database fails is logged, and the relay carries on at the next wake", async () => {
    await drain();
    const { actionId } = await annasAction();
    const effect = await stored(actionId, "mail.return_confirmed", mail());
    const passFailed = () => lines.some((l) => JSON.parse(l).msg === "effects relay pass failed");
    expect(passFailed()).toBe(false);
    sqliteClient().exec("ALTER TABLE effects RENAME TO effects_gone");
    try {
      startRelay();
      for (let i = 0; i < 250 && !passFailed(); i++) await new Promise((r) => setTimeout(r, 20));
    } finally {
      sqliteClient().exec("ALTER TABLE effects_gone RENAME TO effects");
    }
    try {
      const failed = lines
        .map((l) => JSON.parse(l))
        .find((l) => l.msg === "effects relay pass failed");
      expect(failed).toMatchObject({ level: "error", err: { name: expect.any(String) } });
      wakeRelay();
      expect(await settledSoon(effect.id)).toMatchObject({ status: "succeeded" });
    } finally {
      await stopRelay();
    }
  });

  it("a recording the database refuses leaves the effect in flight for the next relay, and the log names it", async () => {
    await drain();
    const { actionId } = await annasAction();
    const effect = await stored(actionId, "action.replan", {
      tool: "cancel_order",
      refusedEffectId: "ef-refused-9",
      code: "order_changed_at_store",
    });
    sqliteClient().exec("ALTER TABLE audit_events RENAME TO audit_events_gone");
    try {
      expect(await runDueEffects()).toBeGreaterThanOrEqual(1);
    } finally {
      sqliteClient().exec("ALTER TABLE audit_events_gone RENAME TO audit_events");
    }
    expect(await getEffect({ id: effect.id })).toMatchObject({ status: "in_flight", attempts: 1 });
    expect(failures().map((l) => l.effectId)).toContain(effect.id);
    // Its lease lapses: the next relay's attempt begins with the lookup.
    await core.db.update(effects).set({ leaseUntil: new Date() }).where(eq(effects.id, effect.id));
    await runDueEffects();
    expect(await getEffect({ id: effect.id })).toMatchObject({ status: "pending", attempts: 2 });
    expect((await attempts(effect)).map((e) => e.result.steps)).toEqual([["lookup:indeterminate"]]);
  });
});

describe("the relay's own loop (EFFECTS_POLL_SECONDS is an hour here)", () => {
  it("started with nothing due yet, it sleeps until the next effect falls due, not for the poll", async () => {
    await drain();
    const { actionId } = await annasAction();
    const effect = await stored(actionId, "mail.return_confirmed", mail(), {
      nextAttemptAt: new Date(Date.now() + 300),
    });
    startRelay();
    try {
      expect(await settledSoon(effect.id)).toMatchObject({ status: "succeeded", attempts: 1 });
    } finally {
      await stopRelay();
    }
  });

  it("a canary's effect waiting for its retry wakes it when due, though its kind is left out of the due time", async () => {
    await drain();
    useEnv({ EFFECTS_CANARY_COUNT: "3" });
    const stripe = await newStripe();
    const { actionId } = await annasAction();
    const effect = await stored(actionId, "payment.refund", refund(7201));
    stripe.fail("rate_limited");
    await runDueEffects();
    expect(await getEffect({ id: effect.id })).toMatchObject({ status: "pending", attempts: 1 });
    await core.db
      .update(effects)
      .set({ nextAttemptAt: new Date(Date.now() + 300) })
      .where(eq(effects.id, effect.id));
    startRelay();
    try {
      expect(await settledSoon(effect.id)).toMatchObject({ status: "succeeded", attempts: 2 });
    } finally {
      await stopRelay();
    }
  });

  it("stopping waits for the pass in progress: once stopRelay returns, its attempt is recorded", async () => {
    await drain();
    const stripe = await newStripe();
    const { actionId } = await annasAction();
    const effect = await stored(actionId, "payment.refund", refund(7101));
    let release = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let applied = () => {};
    const reached = new Promise<void>((r) => {
      applied = r;
    });
    stripe.onApply = async () => {
      applied();
      await gate;
    };
    startRelay();
    await reached;
    const stopping = stopRelay();
    release();
    await stopping;
    expect(await getEffect({ id: effect.id })).toMatchObject({ status: "succeeded" });
  });
});
