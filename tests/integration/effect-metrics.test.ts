/**
 * The metrics page's effects figures (lib/metrics/effects.ts over db/queries/effect-metrics.ts):
 * effects confirmed in the range counted by kind and current status, and the exact nearest-rank
 * p50 / p90 / slowest time from the confirm to settled. And the page's decisions count confirms,
 * not the refunds' successful attempts (which are audit events of the same action). Real
 * database (SQLite, and PostgreSQL in the postgres project), real confirms, the outbox's own
 * claim and record calls with chosen times, and at the end the real relay with the built-in
 * ledger.
 */
import { randomUUID } from "node:crypto";
import { and, eq, ne } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  claimDueEffects,
  type EffectOutcomeSet,
  listEffectsForAction,
  recordEffectOutcome,
  resolveEffect,
} from "@/db/queries/effects";
import { DAY_MS, dayOf } from "@/db/queries/metrics";
import { effects, orderItems, orders } from "@/db/schema";
import { confirmAction } from "@/lib/actions/confirm";
import { runDueEffects } from "@/lib/effects/relay";
import { effectsReport } from "@/lib/metrics/effects";
import { metricsReport } from "@/lib/metrics/report";
import { type Core, newChat, proposeWith, setupCore } from "./action-core/fixtures";

let core: Core;
let nextOrder = 7100;
// Whole seconds from the start of a UTC day, so every time below stays inside that day.
const base = (dayOf(Date.now()) - 1) * DAY_MS + 3_600_000;

/** A confirmed cancellation at `at`: its refund effect (pending), created at exactly `at`. */
async function confirmedAt(at: number): Promise<{ actionId: string; effectId: string }> {
  const id = String(nextOrder++);
  const now = new Date(at);
  await core.db.insert(orders).values({
    id,
    userId: core.anna,
    status: "processing",
    placedAt: now,
    totalMinor: 1000,
    currency: "EUR",
    paymentMethod: "Visa •••• 4242",
    paymentRef: `pi_m${id}`,
    version: 1,
    updatedAt: now,
  });
  await core.db
    .insert(orderItems)
    .values({ orderId: id, name: "Mug", quantity: 1, unitPriceMinor: 1000 });
  const chatId = await newChat(core.db, core.anna, now);
  const action = await proposeWith(
    "cancel_order",
    core.anna,
    chatId,
    { orderId: id, reason: "changed_mind", comment: null },
    { now },
  );
  await confirmAction({ actionId: action.id, userId: core.anna, now });
  // These figures are about refunds: the confirm's mail to the customer (another kind, counted
  // apart on the page) is taken out, so each claim below takes exactly the refund.
  await core.db
    .delete(effects)
    .where(and(eq(effects.actionId, action.id), ne(effects.kind, "payment.refund")));
  const [effect] = await listEffectsForAction({ actionId: action.id });
  expect(effect!.createdAt.getTime()).toBe(at);
  return { actionId: action.id, effectId: effect!.id };
}

/** One attempt by a relay: claimed at `at`, recorded as `status` at `at + settleMs`. */
async function attempt(
  at: number,
  settleMs: number | null,
  status: EffectOutcomeSet["status"] = "succeeded",
) {
  const owner = `test-${randomUUID()}`;
  const claimed = await claimDueEffects({
    now: new Date(at),
    owner,
    leaseUntil: new Date(at + 60_000),
    limit: 1,
  });
  expect(claimed).toHaveLength(1);
  if (settleMs === null) return claimed[0]!;
  const done = new Date(at + settleMs);
  return (await recordEffectOutcome({
    id: claimed[0]!.id,
    owner,
    now: done,
    set: { status, settledAt: status === "pending" ? null : done, lastErrorCode: null },
  }))!;
}

describe("effects on the metrics page", () => {
  beforeAll(async () => {
    core = await setupCore();
    // Ten refunds that succeeded 100 ms, 200 ms … 1 s after their confirm, one declined after
    // 5 s, one given up after 20 s, one given up after 30 s and then resolved by staff.
    let at = base;
    for (let i = 1; i <= 10; i++) {
      await confirmedAt(at);
      await attempt(at, i * 100);
      at += 60_000;
    }
    await confirmedAt(at);
    await attempt(at, 5000, "failed");
    at += 60_000;
    await confirmedAt(at);
    await attempt(at, 20_000, "needs_attention");
    at += 60_000;
    const resolved = await confirmedAt(at);
    await attempt(at, 30_000, "needs_attention");
    expect(
      await resolveEffect({
        id: resolved.effectId,
        now: new Date(at + 90_000),
        note: "refunded by hand",
        staffId: "staff",
      }),
    ).not.toBeNull();
    at += 60_000;
    // One in flight right now, one still waiting for the relay (in that order: a claim takes
    // every due effect it may, so nothing else may be due when the in-flight one is claimed).
    await confirmedAt(at);
    await attempt(at, null);
    at += 60_000;
    await confirmedAt(at);
    // And one confirmed three days earlier, outside the range, that took an hour.
    const old = base - 3 * DAY_MS;
    await confirmedAt(old);
    await attempt(old, 3_600_000);
  });

  const range = () => ({ fromDay: dayOf(base), toDay: dayOf(base) + 2 });

  it("counts the range's effects by kind and current status", async () => {
    const report = await effectsReport(range());
    // The work queue now: the declined one and the one given up (the resolved one left it).
    expect(report.queue).toBe(2);
    expect(report.kinds).toHaveLength(1);
    expect(report.kinds[0]).toMatchObject({
      kind: "payment.refund",
      total: 15,
      byStatus: {
        pending: 1,
        in_flight: 1,
        succeeded: 10,
        failed: 1,
        needs_attention: 1,
        resolved: 1,
      },
    });
  });

  it("gives the exact time from confirm to settled: p50, p90 and the slowest", async () => {
    // Settled: 100 … 1000 ms (ten), 5 s, 20 s, 30 s. Nearest rank of 13: p50 the 7th, p90 the 12th.
    const report = await effectsReport(range());
    expect(report.kinds[0]!.settle).toEqual({ count: 13, p50: 700, p90: 20_000, max: 30_000 });
    // A range holding only the old one: one hour, whatever the percentile.
    const old = await effectsReport({ fromDay: dayOf(base) - 3, toDay: dayOf(base) - 2 });
    expect(old.kinds).toEqual([
      {
        kind: "payment.refund",
        total: 1,
        byStatus: expect.objectContaining({ succeeded: 1, pending: 0 }),
        settle: { count: 1, p50: 3_600_000, p90: 3_600_000, max: 3_600_000 },
      },
    ]);
    expect(
      (await effectsReport({ fromDay: dayOf(base) + 5, toDay: dayOf(base) + 6 })).kinds,
    ).toEqual([]);
  });

  it("counts confirms as decisions, not the refunds' successful attempts", async () => {
    // The real relay (the built-in ledger) now refunds a fresh cancellation, the one left
    // pending and the one whose relay "died" in flight: one `success` audit event each, on the
    // action, like its confirm's.
    const fresh = await confirmedAt(Date.now());
    expect(await runDueEffects()).toBe(3);
    expect((await listEffectsForAction({ actionId: fresh.actionId }))[0]!.status).toBe("succeeded");
    const report = await metricsReport(range());
    // Sixteen confirms in the range (the three refunds are not three more).
    expect(report.decisions.confirmed).toBe(16);
    expect(report.series.reduce((s, d) => s + d.confirmed, 0)).toBe(16);
    expect(report.proposals).toBe(16);
  });
});
