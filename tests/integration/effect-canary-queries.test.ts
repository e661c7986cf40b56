/**
 * The integration canary's queries, one by one, on both databases: a canary that needs no
 * confirmations has passed at once; its one slot goes to one effect at a time; an effect is
 * claimed by id only when it is due (pending past its backoff, or its lease lapsed); and the
 * relay's next look at a canary is its current effect's retry. The relay's behaviour built on
 * them is effects-canary.test.ts.
 */
import { beforeEach, describe, expect, it } from "vitest";
import {
  canaryEffectsNextAt,
  claimEffectById,
  ensureEffectCanary,
  getEffectCanary,
  releaseCanarySlot,
  takeCanarySlot,
} from "@/db/queries/effect-canaries";
import { useTestDatabase } from "../helpers/db";
import { at, insertEffect } from "./effect-rows";

const KIND = "payment.refund";
const effect = (id: string, status: string, dueIn: number, leaseIn: number | null = null) =>
  insertEffect({ id, kind: KIND, status, dueIn, leaseIn });

beforeEach(async () => {
  await useTestDatabase({ seed: false });
});

describe("ensureEffectCanary", () => {
  it("starts a canary that needs confirmations as running, and one that needs none as passed", async () => {
    const running = await ensureEffectCanary({
      kind: KIND,
      fingerprint: "fp-1",
      provider: "stripe",
      required: 2,
      now: at(0),
    });
    expect(running).toMatchObject({
      status: "running",
      required: 2,
      confirmed: 0,
      settledAt: null,
    });
    const none = await ensureEffectCanary({
      kind: KIND,
      fingerprint: "fp-0",
      provider: "stripe",
      required: 0,
      now: at(0),
    });
    expect(none).toMatchObject({ status: "passed", required: 0, settledAt: at(0) });
    // Racing relays: the second start finds the first one's row as it was.
    const again = await ensureEffectCanary({
      kind: KIND,
      fingerprint: "fp-1",
      provider: "stripe",
      required: 5,
      now: at(30),
    });
    expect(again).toEqual(running);
    expect(await getEffectCanary({ kind: KIND, fingerprint: "fp-1" })).toEqual(running);
  });
});

describe("the canary's slot", () => {
  it("goes to one effect at a time, again once released, never under a canary that is not running", async () => {
    const c = { kind: KIND, fingerprint: "fp-1" };
    await ensureEffectCanary({ ...c, provider: "stripe", required: 2, now: at(0) });
    expect(await takeCanarySlot({ ...c, effectId: "e1", now: at(1) })).toBe(true);
    expect(await takeCanarySlot({ ...c, effectId: "e2", now: at(2) })).toBe(false);
    expect((await getEffectCanary(c))?.currentEffectId).toBe("e1");
    // Releasing another effect's slot changes nothing.
    await releaseCanarySlot({ ...c, effectId: "e2", now: at(3) });
    expect((await getEffectCanary(c))?.currentEffectId).toBe("e1");
    await releaseCanarySlot({ ...c, effectId: "e1", now: at(4) });
    expect(await takeCanarySlot({ ...c, effectId: "e2", now: at(5) })).toBe(true);
    expect((await getEffectCanary(c))?.currentEffectId).toBe("e2");

    const passed = { kind: KIND, fingerprint: "fp-0" };
    await ensureEffectCanary({ ...passed, provider: "stripe", required: 0, now: at(0) });
    expect(await takeCanarySlot({ ...passed, effectId: "e3", now: at(6) })).toBe(false);
    expect(
      await takeCanarySlot({ kind: KIND, fingerprint: "none", effectId: "e3", now: at(6) }),
    ).toBe(false);
  });
});

describe("claimEffectById", () => {
  const claim = (id: string, now: number) =>
    claimEffectById({ id, now: at(now), owner: "relay-new", leaseUntil: at(now + 60) });

  it("claims a pending effect past its backoff, counting the attempt", async () => {
    await effect("due", "pending", 10);
    expect(await claim("due", 9)).toBeNull();
    expect(await claim("due", 10)).toMatchObject({
      id: "due",
      status: "in_flight",
      leaseOwner: "relay-new",
      leaseUntil: at(70),
      attempts: 2,
      updatedAt: at(10),
    });
    // Claimed: nobody else claims it while its lease runs.
    expect(await claim("due", 20)).toBeNull();
  });

  it("takes over an in-flight effect only once its lease lapsed; never a settled one", async () => {
    await effect("held", "in_flight", -30, 15);
    expect(await claim("held", 14)).toBeNull();
    expect(await claim("held", 15)).toMatchObject({ status: "in_flight", leaseOwner: "relay-new" });
    for (const status of ["succeeded", "failed", "needs_attention"]) {
      await effect(status, status, -30, -20);
      expect(await claim(status, 0), status).toBeNull();
    }
    expect(await claim("no-such-effect", 0)).toBeNull();
  });
});

describe("canaryEffectsNextAt", () => {
  it("is the earliest retry among the canaries' pending current effects", async () => {
    expect(await canaryEffectsNextAt({ ids: [] })).toBeNull();
    await effect("a", "pending", 40);
    await effect("b", "pending", 25);
    await effect("c", "in_flight", 5, 60);
    await effect("d", "pending", 10);
    expect(await canaryEffectsNextAt({ ids: ["a", "b", "c"] })).toEqual(at(25));
    expect(await canaryEffectsNextAt({ ids: ["a"] })).toEqual(at(40));
    expect(await canaryEffectsNextAt({ ids: ["c"] })).toBeNull();
    expect(await canaryEffectsNextAt({ ids: ["nothing"] })).toBeNull();
  });
});
