/**
 * One refund per received return, across processes. Six OS processes mark the same
 * return received at once (the conditional update on received_at decides: one wins, one refund
 * effect); then a relay process is SIGKILLed after Stripe (the loopback server, through the real
 * SDK) applied the refund and before the relay recorded it, and the next relay looks the refund
 * up instead of sending it again. Real database (SQLite, and PostgreSQL in the postgres
 * project), real processes.
 */
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StripeServer, startStripeServer } from "@/bench/lib/stripe-server";
import { closeDb, getDb } from "@/db";
import { listEffectsForAction } from "@/db/queries/effects";
import { auditEvents } from "@/db/schema";
import { confirmAction } from "@/lib/actions/confirm";
import { runDueEffects } from "@/lib/effects/relay";
import { resetEnv } from "@/lib/env";
import { workerEnv } from "../helpers/db";
import { release, startWorker, type Worker } from "../helpers/workers";
import { type Core, newChat, proposeWith, setupCore } from "./action-core/fixtures";

const WORKER = path.join(import.meta.dirname, "receive-worker.ts");
let core: Core;
let stripe: StripeServer;

const ENV = {
  STRIPE_TIMEOUT_MS: "400",
  EFFECTS_LEASE_SECONDS: "1",
  EFFECTS_RETRY_BASE_MS: "1",
  EFFECTS_RETRY_MAX_MS: "5",
  EFFECTS_POLL_SECONDS: "3600",
};

function worker(args: string[]): Worker {
  return startWorker(WORKER, args, {
    ...process.env,
    ...ENV,
    ...workerEnv(core.file),
    SEED_DEMO: "0",
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_API_BASE: stripe.url,
  });
}

beforeAll(async () => {
  stripe = await startStripeServer();
  for (const [k, v] of Object.entries(ENV)) process.env[k] = v;
  process.env.STRIPE_SECRET_KEY = stripe.secretKey;
  process.env.STRIPE_API_BASE = stripe.url;
  resetEnv();
  core = await setupCore();
});

afterAll(async () => {
  await stripe?.close();
  for (const k of ["STRIPE_SECRET_KEY", "STRIPE_API_BASE", ...Object.keys(ENV)])
    delete process.env[k];
  resetEnv();
});

describe("one refund per received return, across processes", () => {
  it("six processes race to receive it, a relay is SIGKILLed mid-refund: one refund at Stripe", {
    timeout: 120_000,
  }, async () => {
    const action = await proposeWith(
      "create_return_request",
      core.anna,
      await newChat(core.db, core.anna),
      {
        orderId: "7718",
        reason: "damaged",
        comment: null,
      },
    );
    const done = await confirmAction({ actionId: action.id, userId: core.anna });
    const requestId = (done.result as unknown as { requestId: string }).requestId;
    // The confirm's mail first, so the relay process below has only the refund to do.
    while ((await runDueEffects()) > 0) {}

    await closeDb(); // The workers own the database during the race.
    const racers = Array.from({ length: 6 }, () => worker(["receive", core.staff, requestId, "2"]));
    const { codes, lines: answers } = await release<{ ok: boolean; code?: string }>(racers);
    expect(codes).toEqual([0, 0, 0, 0, 0, 0]);
    expect(answers).toHaveLength(12);
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(answers.filter((a) => !a.ok).map((a) => a.code)).toEqual(Array(11).fill("conflict"));
    core.db = getDb();
    const refunds = () =>
      listEffectsForAction({ actionId: action.id }).then((rows) =>
        rows.filter((e) => e.kind === "payment.refund"),
      );
    expect(await refunds()).toHaveLength(1);

    // A relay in its own process applies the refund at Stripe and is killed before recording it.
    const relay = worker(["relay"]);
    stripe.onApply = () => {
      stripe.onApply = undefined;
      relay.child.kill("SIGKILL");
    };
    await relay.done;
    const [atKill] = await refunds();
    expect(atKill).toMatchObject({ status: "in_flight", attempts: 1, providerRef: null });
    expect(stripe.refunds.filter((r) => r.metadata.operation_id === action.id)).toHaveLength(1);

    // Its lease lapses; our relay takes the refund over, looks it up and records it.
    for (let i = 0; i < 400; i++) {
      const [e] = await refunds();
      if (e!.status !== "in_flight" && e!.status !== "pending") break;
      if ((await runDueEffects()) === 0) await new Promise((r) => setTimeout(r, 50));
    }
    while ((await runDueEffects()) > 0) {}
    const at = stripe.refunds.filter((r) => r.metadata.operation_id === action.id);
    expect(at).toHaveLength(1);
    const [after] = await refunds();
    expect(after).toMatchObject({ status: "succeeded", attempts: 2, providerRef: at[0]!.id });
    const outcomes = (
      await core.db.select().from(auditEvents).where(eq(auditEvents.actionId, action.id))
    )
      .filter((e) => e.tool === "effect:payment.refund")
      .map((e) => (e.result as { outcome: string }).outcome);
    expect(outcomes).toEqual(["reconciled"]);
    // The customer is told once.
    const mails = (await listEffectsForAction({ actionId: action.id })).filter(
      (e) => e.kind === "mail.refund_succeeded",
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.status).toBe("succeeded");
  });
});
