/**
 * Refunds through the effects outbox on PostgreSQL: three production servers share one database and one payment provider
 * (the loopback Stripe server, through the real SDK, misbehaving on a few requests). Fifty
 * cancellations are confirmed round-robin over the three; every instance's relay claims effects
 * with FOR UPDATE SKIP LOCKED leases at the same time, retries and reconciles. Each order is
 * refunded exactly once, of its own total, carrying its action id, and all three relays took part.
 *
 * Runs in vitest's "postgres" project (TEST_DATABASE_URL). The test seeds the orders and the
 * proposals through the app's own code in this process (the executor, as a chat turn calls it);
 * the confirms go over HTTP.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpCustomer } from "@/bench/lib/client";
import { ensureBuild, type Server, startServer } from "@/bench/lib/server";
import { type StripeServer, startStripeServer } from "@/bench/lib/stripe-server";
import { closeDb, getDb } from "@/db";
import { chats, orderItems, orders } from "@/db/schema";
import { seedDemoLikeUser } from "@/db/seed";
import { executeToolCall } from "@/lib/actions/executor";
import { resetEnv } from "@/lib/env";
import { createPostgresDatabase } from "../helpers/db";
import { DIST_DIR } from "./lib/world";

const INSTANCES = 3;
const CANCELLATIONS = 50;
const SECRET = "effects-multi-secret-effects-multi-secret";

let url: string;
let dir: string;
let db: pg.Client;
let stripe: StripeServer;
const servers: Server[] = [];
type Case = { actionId: string; orderId: string; total: number };
const cases: Case[] = [];
const confirms: number[] = [];

async function rows<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await db.query(sql, params)).rows as T[];
}

beforeAll(async () => {
  ensureBuild(DIST_DIR);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-effects-multi-"));
  url = await createPostgresDatabase();
  db = new pg.Client({ connectionString: url });
  await db.connect();
  stripe = await startStripeServer();
  stripe.slowMs = 1500;
  const env = {
    DATABASE_URL: url,
    BETTER_AUTH_SECRET: SECRET,
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_API_BASE: stripe.url,
    STRIPE_TIMEOUT_MS: "1000",
    EFFECTS_LEASE_SECONDS: "3",
    EFFECTS_POLL_SECONDS: "1",
    EFFECTS_RETRY_BASE_MS: "50",
    EFFECTS_RETRY_MAX_MS: "200",
  };
  servers.push(
    ...(await Promise.all(
      Array.from({ length: INSTANCES }, () =>
        startServer({ distDir: DIST_DIR, dbPath: path.join(dir, "unused.db"), env }),
      ),
    )),
  );
  // The instances migrated and seeded the database; this process seeds the cases into it.
  process.env.DATABASE_URL = url;
  process.env.BETTER_AUTH_SECRET = SECRET;
  resetEnv();
  const email = `effects-${Date.now().toString(36)}@multi.example.com`;
  const { userId } = await seedDemoLikeUser({ like: "anna", email });
  const taken = new Set((await getDb().select({ id: orders.id }).from(orders)).map((o) => o.id));
  let next = 1000;
  const now = new Date();
  for (let i = 0; i < CANCELLATIONS; i++) {
    while (taken.has(String(next))) next++;
    const orderId = String(next++);
    const total = 1000 + i * 7;
    await getDb()
      .insert(orders)
      .values({
        id: orderId,
        userId,
        status: "processing",
        placedAt: now,
        totalMinor: total,
        currency: "EUR",
        paymentMethod: "Visa •••• 4242",
        paymentRef: `pi_multi${orderId}`,
        version: 1,
        updatedAt: now,
      });
    await getDb()
      .insert(orderItems)
      .values({ orderId, name: "Mug", quantity: 1, unitPriceMinor: total });
    const chatId = randomUUID();
    await getDb().insert(chats).values({ id: chatId, userId, createdAt: now, updatedAt: now });
    const out = await executeToolCall(
      "cancel_order",
      { orderId, reason: "changed_mind", comment: null },
      { userId, chatId },
    );
    if (out.kind !== "proposal") throw new Error(`no proposal for ${orderId}`);
    cases.push({ actionId: out.action.id, orderId, total });
  }
  // A few requests misbehave; whichever relay meets them retries and reconciles.
  stripe.fail(
    "500_after_apply",
    "drop_after_apply",
    "drop",
    "slow_after_apply",
    "500_without_apply",
    "drop",
    "drop",
  );
  const who = await HttpCustomer.signIn(servers[0]!.url, email);
  // Confirmed ten at a time, round-robin over the instances.
  for (let i = 0; i < cases.length; i += 10) {
    const batch = cases.slice(i, i + 10).map(async (c, j) => {
      const base = servers[(i + j) % INSTANCES]!.url;
      const res = await fetch(`${base}/api/actions/${c.actionId}/confirm`, {
        method: "POST",
        headers: { cookie: who.cookie, origin: base },
      });
      await res.text();
      return res.status;
    });
    confirms.push(...(await Promise.all(batch)));
  }
  // Until every effect is settled (each poll is cheap; the slow ones wait for a lease or a retry).
  for (let i = 0; i < 1200; i++) {
    const [open] = await rows<{ n: string }>(
      "SELECT count(*) n FROM effects WHERE status IN ('pending', 'in_flight')",
    );
    if (Number(open!.n) === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
}, 15 * 60_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop("SIGKILL")));
  await stripe?.close();
  await db?.end();
  await closeDb();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("three instances' relays on one PostgreSQL database", () => {
  it("confirmed all fifty", () => {
    expect(confirms).toEqual(cases.map(() => 200));
  });

  it("refunded every order exactly once, of its own total, carrying its action id", async () => {
    const effects = await rows<{ action_id: string; status: string; provider_ref: string }>(
      // The refunds (each cancellation also mails the customer: other kinds).
      "SELECT action_id, status, provider_ref FROM effects WHERE kind = 'payment.refund'",
    );
    expect(effects).toHaveLength(CANCELLATIONS);
    for (const c of cases) {
      const refunds = stripe.refunds.filter((r) => r.metadata.action_id === c.actionId);
      expect(refunds).toHaveLength(1);
      expect(refunds[0]).toMatchObject({
        amount: c.total,
        payment_intent: `pi_multi${c.orderId}`,
        metadata: { operation_id: c.actionId, order_id: c.orderId },
      });
      const effect = effects.find((e) => e.action_id === c.actionId);
      expect(effect).toMatchObject({ status: "succeeded", provider_ref: refunds[0]!.id });
    }
    expect(stripe.refunds).toHaveLength(CANCELLATIONS);
  });

  it("all three relays did the work, and the faults were met and reconciled", async () => {
    const events = await rows<{ result: { outcome: string; relay: string } }>(
      "SELECT result FROM audit_events WHERE tool = 'effect:payment.refund'",
    );
    const settled = events.filter((e) => ["succeeded", "reconciled"].includes(e.result.outcome));
    expect(settled).toHaveLength(CANCELLATIONS);
    expect(new Set(events.map((e) => e.result.relay)).size).toBe(INSTANCES);
    expect(events.some((e) => e.result.outcome === "retry")).toBe(true);
    expect(events.some((e) => e.result.outcome === "reconciled")).toBe(true);
  });
});
