/**
 * The integration canary for effects: after the payment provider's configuration changes (here
 * a new Stripe base URL: another loopback Stripe server), the first EFFECTS_CANARY_COUNT refunds
 * go one at a time, each reconciled (a lookup at the provider) before the next is released; a
 * failure holds the rest as needs_attention without sending them; after the count, refunds flow
 * as before. Real database (SQLite, and PostgreSQL in the postgres project), real confirm, relay
 * and staff routes; only Stripe is faked, at its wire protocol.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as retryRoute } from "@/app/api/staff/effects/[id]/retry/route";
import { GET as listEffectsRoute } from "@/app/api/staff/effects/route";
import { type StripeServer, startStripeServer } from "@/bench/lib/stripe-server";
import { getEffectCanary } from "@/db/queries/effect-canaries";
import { type EffectRow, listEffectsForAction } from "@/db/queries/effects";
import { orderItems, orders } from "@/db/schema";
import { confirmAction } from "@/lib/actions/confirm";
import type { EffectCanary } from "@/lib/api/schemas";
import { configFingerprint } from "@/lib/effects/canary";
import { runDueEffects, stopRelay } from "@/lib/effects/relay";
import { resetEnv } from "@/lib/env";
import { call, signIn } from "../helpers/http";
import { type Core, newChat, proposeWith, setupCore } from "./action-core/fixtures";

const ENV = {
  STRIPE_TIMEOUT_MS: "300",
  EFFECTS_LEASE_SECONDS: "2",
  EFFECTS_RETRY_BASE_MS: "1",
  EFFECTS_RETRY_MAX_MS: "5",
  EFFECTS_MAX_ATTEMPTS: "6",
  EFFECTS_POLL_SECONDS: "3600",
  EFFECTS_CANARY_COUNT: "3",
};

let core: Core;
let staffCookie: string;
const servers: StripeServer[] = [];
let nextOrderId = 7100;

/** Points the payments provider at a new loopback Stripe: a new base URL, a new configuration. */
async function newStripe(): Promise<StripeServer> {
  const s = await startStripeServer();
  servers.push(s);
  process.env.STRIPE_SECRET_KEY = s.secretKey;
  process.env.STRIPE_API_BASE = s.url;
  resetEnv();
  return s;
}

async function confirmedCancellation(total = 3000): Promise<string> {
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
    paymentRef: `pi_canary${id}`,
    version: 1,
    updatedAt: now,
  });
  await core.db
    .insert(orderItems)
    .values({ orderId: id, name: "Kettle", quantity: 1, unitPriceMinor: total });
  const chatId = await newChat(core.db, core.anna);
  const action = await proposeWith("cancel_order", core.anna, chatId, {
    orderId: id,
    reason: "changed_mind",
    comment: null,
  });
  expect((await confirmAction({ actionId: action.id, userId: core.anna })).action.status).toBe(
    "executed",
  );
  return action.id;
}

async function refundOf(actionId: string): Promise<EffectRow> {
  const rows = (await listEffectsForAction({ actionId })).filter(
    (e) => e.kind === "payment.refund",
  );
  return rows[0]!;
}
const refunds = (ids: string[]) => Promise.all(ids.map(refundOf));
const statuses = async (ids: string[]) => (await refunds(ids)).map((e) => e.status);
const posts = (s: StripeServer) => s.requests.filter((r) => r.method === "POST");
const lookups = (s: StripeServer) => s.requests.filter((r) => r.method === "GET");

async function staffQueue(): Promise<{ effects: { id: string }[]; canaries: EffectCanary[] }> {
  const res = await call(listEffectsRoute, "/api/staff/effects", {}, { cookie: staffCookie });
  expect(res.status).toBe(200);
  return res.json();
}

/** Several relays at once (on PostgreSQL, concurrent transactions on the pool). */
const relays = (n: number) => Promise.all(Array.from({ length: n }, () => runDueEffects()));

beforeAll(async () => {
  core = await setupCore(ENV);
  for (const [k, v] of Object.entries(ENV)) process.env[k] = v;
  resetEnv();
  staffCookie = await signIn("staff@example.com");
});

afterAll(async () => {
  await stopRelay();
  for (const s of servers) await s.close();
  for (const k of ["STRIPE_SECRET_KEY", "STRIPE_API_BASE", ...Object.keys(ENV)])
    delete process.env[k];
  resetEnv();
});

describe("the integration canary for effects", () => {
  it("a new Stripe base URL: the first refunds go one at a time and wait for reconciliation, then flow normally", async () => {
    // A first configuration counts as a change.
    const first = await newStripe();
    const a = await confirmedCancellation();
    await relays(2);
    expect(await statuses([a])).toEqual(["succeeded"]);
    // Sent once, then looked up before anything else of its kind may go.
    expect(first.requests.map((r) => r.method)).toEqual(["POST", "GET"]);
    for (let i = 0; i < 2; i++) {
      await confirmedCancellation();
      while ((await runDueEffects()) > 0) {}
    }
    const passedFp = configFingerprint("stripe", [first.secretKey, first.url]);
    expect(await getEffectCanary({ kind: "payment.refund", fingerprint: passedFp })).toMatchObject({
      status: "passed",
      confirmed: 3,
    });

    // A new base URL: a new canary, whatever the first one did.
    const stripe = await newStripe();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await confirmedCancellation(3000 + i));
    const fp = configFingerprint("stripe", [stripe.secretKey, stripe.url]);
    expect(fp).not.toBe(passedFp);

    // Three relays at a time until the canary has passed. Passes overlap (on PostgreSQL they
    // are concurrent transactions), so a later pass may release the next refund as soon as the
    // one before was reconciled; never sooner.
    for (let round = 0; round < 20; round++) {
      await relays(3);
      const canary = await getEffectCanary({ kind: "payment.refund", fingerprint: fp });
      // The staff queue shows the canary as it stands.
      const shown = (await staffQueue()).canaries.find((c) => c.fingerprint === fp);
      expect(shown).toMatchObject({
        kind: "payment.refund",
        provider: "stripe",
        status: canary!.status,
        confirmed: canary!.confirmed,
        required: 3,
      });
      if (canary!.status === "passed") break;
      expect(canary).toMatchObject({ status: "running" });
      // The released ones in the order they were confirmed; the rest wait, unsent.
      expect(await statuses(ids)).toEqual(
        ids.map((_, i) => (i < canary!.confirmed ? "succeeded" : "pending")),
      );
      expect(posts(stripe)).toHaveLength(canary!.confirmed);
    }
    expect(await getEffectCanary({ kind: "payment.refund", fingerprint: fp })).toMatchObject({
      status: "passed",
      confirmed: 3,
      currentEffectId: null,
    });
    // Each of the three was sent, then looked up, before the next was sent.
    expect(stripe.requests.slice(0, 6).map((r) => r.method)).toEqual([
      "POST",
      "GET",
      "POST",
      "GET",
      "POST",
      "GET",
    ]);
    const canaryKeys = stripe.requests.filter((r) => r.method === "POST").slice(0, 3);
    expect(canaryKeys.map((r) => r.key)).toEqual(
      (await refunds(ids.slice(0, 3))).map((e) => e.idempotencyKey),
    );
    // After the canary the remaining refunds flow as usual, with no lookup.
    while ((await runDueEffects()) > 0) {}
    expect(await statuses(ids)).toEqual(ids.map(() => "succeeded"));
    expect(posts(stripe)).toHaveLength(5);
    expect(lookups(stripe)).toHaveLength(3);
    expect(stripe.refunds).toHaveLength(5);

    // What staff see of the configuration is a keyed hash: not the key, not the URL, and not a
    // plain hash of them that a guess could be checked against.
    const text = JSON.stringify(await staffQueue());
    expect(text).not.toContain(stripe.secretKey);
    expect(text).not.toContain(stripe.url);
    const plain = createHash("sha256")
      .update(JSON.stringify(["effects-canary", "stripe", stripe.secretKey, stripe.url]))
      .digest("hex");
    expect(plain.startsWith(fp)).toBe(false);
    expect(fp).toMatch(/^[0-9a-f]{16}$/);
  });

  it("a failing first refund holds the rest as needs_attention, unsent; retrying it runs the canary again", async () => {
    while ((await runDueEffects()) > 0) {}
    const stripe = await newStripe();
    const fp = configFingerprint("stripe", [stripe.secretKey, stripe.url]);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await confirmedCancellation(2000 + i));
    // Stripe is unreachable: the first refund's outcome stays unknown until its attempts run out.
    stripe.setDown(true);
    let [failed] = await refunds(ids);
    for (let i = 0; i < 100 && failed!.status !== "needs_attention"; i++) {
      await relays(2);
      await new Promise((r) => setTimeout(r, 10));
      [failed] = await refunds(ids);
    }
    expect(failed).toMatchObject({ status: "needs_attention", attempts: 6 });
    const canary = await getEffectCanary({ kind: "payment.refund", fingerprint: fp });
    expect(canary).toMatchObject({ status: "held", confirmed: 0, failedEffectId: failed!.id });
    // Only the first refund was ever tried.
    const sentKeys = () => new Set(stripe.requests.flatMap((r) => (r.key ? [r.key] : [])));
    expect([...sentKeys()].every((k) => k === failed!.idempotencyKey)).toBe(true);

    // The next pass holds the rest instead of sending them.
    await runDueEffects();
    const rest = (await refunds(ids)).slice(1);
    expect(rest.map((e) => [e.status, e.lastErrorCode])).toEqual([
      ["needs_attention", "canary_held"],
      ["needs_attention", "canary_held"],
    ]);
    // A refund confirmed later meets the held canary too.
    ids.push(await confirmedCancellation(2100));
    await runDueEffects();
    expect((await refundOf(ids[3]!)).lastErrorCode).toBe("canary_held");
    expect(stripe.refunds).toHaveLength(0);
    expect([...sentKeys()].every((k) => k === failed!.idempotencyKey)).toBe(true);

    const queue = await staffQueue();
    expect(queue.effects.map((e) => e.id)).toEqual(
      expect.arrayContaining((await refunds(ids)).map((e) => e.id)),
    );
    expect(queue.canaries.find((c) => c.fingerprint === fp)).toMatchObject({
      status: "held",
      failedEffectId: failed!.id,
      currentEffectId: null,
    });
    stripe.setDown(false);
    const before = posts(stripe).length;

    // Staff retry the refund that held it: the canary runs again with it first; it is looked up,
    // sent, and confirmed by a second lookup.
    const retry = (e: EffectRow) =>
      call(
        retryRoute,
        `/api/staff/effects/${e.id}/retry`,
        { id: e.id },
        { method: "POST", cookie: staffCookie, body: { updatedAt: e.updatedAt.toISOString() } },
      );
    expect((await retry(failed!)).status).toBe(200);
    await relays(2);
    expect(await getEffectCanary({ kind: "payment.refund", fingerprint: fp })).toMatchObject({
      status: "running",
      confirmed: 1,
    });
    expect((await refundOf(ids[0]!)).status).toBe("succeeded");
    // The held ones go back one at a time, like any under a running canary.
    for (const e of (await refunds(ids)).slice(1)) expect((await retry(e)).status).toBe(200);
    await relays(2);
    expect(posts(stripe)).toHaveLength(before + 2);
    while ((await runDueEffects()) > 0) {}
    expect(await statuses(ids)).toEqual(ids.map(() => "succeeded"));
    // One refund each, whoever sent it and however often it was looked up.
    expect(stripe.refunds).toHaveLength(4);
  });

  it("a success the provider cannot show on lookup is not confirmed: the effect needs a person and the canary holds", async () => {
    while ((await runDueEffects()) > 0) {}
    const stripe = await newStripe();
    const fp = configFingerprint("stripe", [stripe.secretKey, stripe.url]);
    const ids = [await confirmedCancellation(1500), await confirmedCancellation(1600)];
    // The provider answers the refund, then forgets it: the lookup finds nothing.
    stripe.onApply = () => {
      stripe.refunds.splice(0);
    };
    await runDueEffects();
    stripe.onApply = undefined;
    const [first, second] = await refunds(ids);
    expect([first!.status, first!.lastErrorCode]).toEqual([
      "needs_attention",
      "canary_unconfirmed",
    ]);
    expect(await getEffectCanary({ kind: "payment.refund", fingerprint: fp })).toMatchObject({
      status: "held",
      lastErrorCode: "canary_unconfirmed",
    });
    await runDueEffects();
    expect((await refundOf(second!.actionId)).lastErrorCode).toBe("canary_held");
    expect(posts(stripe)).toHaveLength(1);
  });

  it("an effect settled outside its canary (by an instance whose configuration passed) frees the slot for the next", async () => {
    while ((await runDueEffects()) > 0) {}
    const stripe = await newStripe();
    const fp = configFingerprint("stripe", [stripe.secretKey, stripe.url]);
    const first = await confirmedCancellation(1200);
    stripe.fail("rate_limited");
    await runDueEffects();
    const e1 = await refundOf(first);
    expect(e1.status).toBe("pending");
    expect(await getEffectCanary({ kind: "payment.refund", fingerprint: fp })).toMatchObject({
      currentEffectId: e1.id,
    });
    // An instance still on the first test's configuration, whose canary passed, sends it.
    const old = servers[0]!;
    process.env.STRIPE_SECRET_KEY = old.secretKey;
    process.env.STRIPE_API_BASE = old.url;
    resetEnv();
    for (let i = 0; i < 50 && (await refundOf(first)).status !== "succeeded"; i++) {
      await new Promise((r) => setTimeout(r, 10));
      await runDueEffects();
    }
    expect((await refundOf(first)).status).toBe("succeeded");
    process.env.STRIPE_SECRET_KEY = stripe.secretKey;
    process.env.STRIPE_API_BASE = stripe.url;
    resetEnv();
    const second = await confirmedCancellation(1300);
    await runDueEffects();
    await runDueEffects();
    expect((await refundOf(second)).status).toBe("succeeded");
    expect(await getEffectCanary({ kind: "payment.refund", fingerprint: fp })).toMatchObject({
      status: "running",
      confirmed: 1,
      currentEffectId: null,
    });
  });

  it("EFFECTS_CANARY_COUNT=0 turns it off: a new configuration's refunds flow at once", async () => {
    while ((await runDueEffects()) > 0) {}
    process.env.EFFECTS_CANARY_COUNT = "0";
    const stripe = await newStripe();
    const ids = [await confirmedCancellation(1000), await confirmedCancellation(1100)];
    await runDueEffects();
    expect(await statuses(ids)).toEqual(["succeeded", "succeeded"]);
    expect(lookups(stripe)).toHaveLength(0);
    // No canary at all: staff's queue shows none for this configuration.
    const fp = configFingerprint("stripe", [stripe.secretKey, stripe.url]);
    expect(await getEffectCanary({ kind: "payment.refund", fingerprint: fp })).toBeNull();
    expect((await staffQueue()).canaries.map((c) => c.fingerprint)).not.toContain(fp);
    process.env.EFFECTS_CANARY_COUNT = ENV.EFFECTS_CANARY_COUNT;
    resetEnv();
  });
});
