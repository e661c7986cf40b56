/**
 * The production server is SIGKILLed after Stripe (the loopback server, through the
 * real SDK) applied a cancellation's refund and before the relay recorded it. After a restart on
 * the same database the effect's lease lapses, the restarted relay looks the refund up before
 * sending anything, finds it and records it: still exactly one refund, and nothing re-sent.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpCustomer, pendingActionOf } from "@/bench/lib/client";
import { ensureBuild, type Server, startServer } from "@/bench/lib/server";
import { type StripeServer, startStripeServer } from "@/bench/lib/stripe-server";
import { openReadOnly } from "./lib/db-snapshot";
import { DIST_DIR } from "./lib/world";

type EffectRow = {
  status: string;
  attempts: number;
  provider_ref: string | null;
  idempotency_key: string;
};

let dir: string;
let dbFile: string;
let stripe: StripeServer;
let server: Server | undefined;
let port: number | undefined;

const boot = async () => {
  server = await startServer({
    distDir: DIST_DIR,
    dbPath: dbFile,
    port,
    env: {
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_API_BASE: stripe.url,
      STRIPE_TIMEOUT_MS: "2000",
      EFFECTS_LEASE_SECONDS: "5",
      EFFECTS_POLL_SECONDS: "1",
      EFFECTS_RETRY_BASE_MS: "50",
    },
  });
  port = Number(new URL(server.url).port);
  return server;
};

function effectOf(db: Database.Database, actionId: string): EffectRow | undefined {
  return db
    .prepare(
      "SELECT status, attempts, provider_ref, idempotency_key FROM effects WHERE action_id = ? AND kind = 'payment.refund'",
    )
    .get(actionId) as EffectRow | undefined;
}

describe("SIGKILL between the provider's apply and our record", () => {
  let actionId: string;
  let confirmStatus: number | "lost";
  let atKill: EffectRow | undefined;
  let after: EffectRow | undefined;
  let outcomes: string[] = [];

  beforeAll(async () => {
    ensureBuild(DIST_DIR);
    stripe = await startStripeServer();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-effects-crash-"));
    dbFile = path.join(dir, "app.db");
    const s = await boot();
    const anna = await HttpCustomer.signIn(s.url, "anna@example.com");
    const chat = await anna.newChat();
    const action = pendingActionOf(
      await anna.say(chat, "I ordered it by mistake, please cancel 3004"),
    );
    if (!action) throw new Error("no proposal");
    actionId = action.id;

    // The first refund Stripe applies pulls the plug on our server before Stripe answers.
    let killed: Promise<void> | undefined;
    stripe.onApply = () => {
      stripe.onApply = undefined;
      killed = s.stop("SIGKILL");
      return killed;
    };
    try {
      confirmStatus = (await anna.decide(actionId, "confirm")).status;
    } catch {
      confirmStatus = "lost";
    }
    while (!killed) await new Promise((r) => setTimeout(r, 20));
    await killed;
    const db = openReadOnly(dbFile);
    atKill = effectOf(db, actionId);
    db.close();

    await boot();
    const ro = openReadOnly(dbFile);
    try {
      // The lease (5 s) lapses, then the restarted relay's poll (1 s) takes the effect over.
      for (let i = 0; i < 600; i++) {
        after = effectOf(ro, actionId);
        if (after && !["pending", "in_flight"].includes(after.status)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      outcomes = (
        ro
          .prepare(
            "SELECT result FROM audit_events WHERE action_id = ? AND tool = 'effect:payment.refund' ORDER BY id",
          )
          .all(actionId) as { result: string }[]
      ).map((r) => (JSON.parse(r.result) as { outcome: string }).outcome);
    } finally {
      ro.close();
    }
  }, 10 * 60_000);

  afterAll(async () => {
    await server?.stop();
    await stripe?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("was killed with the refund applied at Stripe and unrecorded here", () => {
    // The confirm committed before the relay called Stripe: answered, or its answer lost.
    expect([200, "lost"]).toContain(confirmStatus);
    expect(atKill).toMatchObject({ status: "in_flight", attempts: 1, provider_ref: null });
    expect(stripe.refunds.filter((r) => r.metadata.action_id === actionId)).toHaveLength(1);
  });

  it("after the restart: recorded as the one refund Stripe has, found by lookup, not re-sent", () => {
    const refunds = stripe.refunds.filter((r) => r.metadata.action_id === actionId);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({
      amount: 4500,
      payment_intent: "pi_demo3004",
      metadata: { operation_id: actionId, action_id: actionId, order_id: "3004" },
    });
    expect(after).toMatchObject({ status: "succeeded", attempts: 2, provider_ref: refunds[0]!.id });
    expect(outcomes).toEqual(["reconciled"]);
    const posts = stripe.requests.filter(
      (r) => r.method === "POST" && r.key === after!.idempotency_key,
    );
    expect(posts).toHaveLength(1);
  });
});
