/**
 * Exactly once under harder faults. Each case ends with exactly one effect applied, or with
 * nothing applied (never twice):
 * - a relay process SIGKILLed in the middle of its reconciliation lookup;
 * - three relay processes (three instances of the app) on one database while the loopback
 *   Stripe forgets its idempotency keys and drops connections after applying refunds;
 * - the SMTP server dropping the connection in the middle of a message's DATA;
 * - on PostgreSQL, the database connection cut by a TCP proxy in the middle of a transaction:
 *   a confirm's (before its COMMIT, and with the COMMIT's answer lost) and an effect record's.
 * Real database (SQLite, and PostgreSQL in the postgres project), real processes, a real SMTP
 * server (smtp-server); only Stripe is faked, at its wire protocol, and reached through the SDK.
 */
import type net from "node:net";
import path from "node:path";
import { eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StripeServer, startStripeServer } from "@/bench/lib/stripe-server";
import { getDb } from "@/db";
import { listEffectsForAction } from "@/db/queries/effects";
import { auditEvents, orderItems, orders, pendingActions } from "@/db/schema";
import { confirmAction } from "@/lib/actions/confirm";
import { runDueEffects } from "@/lib/effects/relay";
import { resetEnv } from "@/lib/env";
import { onPostgres, workerEnv } from "../helpers/db";
import { startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy";
import { startWorker, type Worker } from "../helpers/workers";
import { type Core, newChat, proposeWith, setupCore } from "./action-core/fixtures";

const WORKER = path.join(import.meta.dirname, "relay-worker.ts");
const HOOKS = path.join(import.meta.dirname, "worker-hooks.mjs");
const ENV = {
  STRIPE_TIMEOUT_MS: "400",
  EFFECTS_LEASE_SECONDS: "1",
  EFFECTS_RETRY_BASE_MS: "1",
  EFFECTS_RETRY_MAX_MS: "5",
  EFFECTS_POLL_SECONDS: "3600",
  EFFECTS_MAX_ATTEMPTS: "8",
  MAIL_FROM: "Returns Desk <returns@shop.test>",
};

let core: Core;
let stripe: StripeServer;
let nextOrderId = 8100;

function worker(mode: "once" | "loop"): Worker {
  return startWorker(
    WORKER,
    [mode],
    {
      ...process.env,
      ...ENV,
      ...workerEnv(core.file),
      SEED_DEMO: "0",
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_API_BASE: stripe.url,
    },
    ["--import", "tsx", "--import", HOOKS],
  );
}

beforeAll(async () => {
  stripe = await startStripeServer();
  for (const [k, v] of Object.entries(ENV)) process.env[k] = v;
  process.env.STRIPE_SECRET_KEY = stripe.secretKey;
  process.env.STRIPE_API_BASE = stripe.url;
  delete process.env.SMTP_URL;
  resetEnv();
  core = await setupCore();
});

afterAll(async () => {
  await stripe?.close();
  for (const k of ["STRIPE_SECRET_KEY", "STRIPE_API_BASE", "SMTP_URL", ...Object.keys(ENV)])
    delete process.env[k];
  resetEnv();
});

/** A processing order of Anna's, paid with its own payment intent. */
async function processingOrder(total: number): Promise<string> {
  const id = String(nextOrderId++);
  const now = new Date();
  await getDb()
    .insert(orders)
    .values({
      id,
      userId: core.anna,
      status: "processing",
      placedAt: new Date(now.getTime() - 86_400_000),
      totalMinor: total,
      currency: "EUR",
      paymentMethod: "Visa •••• 4242",
      paymentRef: `pi_hard${id}`,
      version: 1,
      updatedAt: now,
    });
  await getDb()
    .insert(orderItems)
    .values({ orderId: id, name: "Kettle", quantity: 1, unitPriceMinor: total });
  return id;
}

async function proposedCancellation(total: number) {
  const orderId = await processingOrder(total);
  const action = await proposeWith("cancel_order", core.anna, await newChat(getDb(), core.anna), {
    orderId,
    reason: "changed_mind",
    comment: null,
  });
  return { actionId: action.id, orderId, total };
}

async function confirmedCancellation(total: number) {
  const c = await proposedCancellation(total);
  const done = await confirmAction({ actionId: c.actionId, userId: core.anna });
  expect(done.action.status).toBe("executed");
  return c;
}

const refundsAt = (actionId: string) =>
  stripe.refunds.filter((r) => r.metadata.operation_id === actionId);

const effectOf = async (actionId: string, kind = "payment.refund") =>
  (await listEffectsForAction({ actionId })).filter((e) => e.kind === kind);

async function outcomes(actionId: string, tool = "effect:payment.refund") {
  return (await getDb().select().from(auditEvents).where(eq(auditEvents.actionId, actionId)))
    .filter((e) => e.tool === tool)
    .sort((a, b) => a.id - b.id)
    .map((e) => (e.result as { outcome: string }).outcome);
}

const OPEN = new Set(["pending", "in_flight"]);

/** Runs this process's relay until none of the actions' effects is pending or in flight. */
async function settle(actionIds: string[]) {
  for (let i = 0; i < 600; i++) {
    const all = (
      await Promise.all(actionIds.map((actionId) => listEffectsForAction({ actionId })))
    ).flat();
    if (all.every((e) => !OPEN.has(e.status))) return all;
    if ((await runDueEffects()) === 0) await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the effects never settled");
}

describe("a relay SIGKILLed in the middle of a reconciliation lookup", () => {
  it("the next relay looks again, finds the one refund and records it; nothing is re-sent", {
    timeout: 120_000,
  }, async () => {
    const c = await confirmedCancellation(2100);
    // The first attempt: Stripe applies the refund and the answer is lost.
    stripe.fail("drop_after_apply");
    await runDueEffects();
    const [first] = await effectOf(c.actionId);
    expect(first).toMatchObject({ status: "pending", attempts: 1, providerRef: null });
    expect(refundsAt(c.actionId)).toHaveLength(1);

    // The second attempt, in its own process, begins with the lookup; Stripe has it in hand when
    // the process is killed, and answers nobody.
    const relay = worker("once");
    let looked = false;
    stripe.onLookup = async () => {
      stripe.onLookup = undefined;
      looked = true;
      relay.child.kill("SIGKILL");
      await relay.done;
    };
    await relay.done;
    expect(looked).toBe(true);
    const [atKill] = await effectOf(c.actionId);
    expect(atKill).toMatchObject({ status: "in_flight", attempts: 2, providerRef: null });

    // Its lease lapses; this process's relay takes over, looks up again and records the refund.
    await settle([c.actionId]);
    const at = refundsAt(c.actionId);
    expect(at).toHaveLength(1);
    expect(at[0]).toMatchObject({ amount: 2100, payment_intent: `pi_hard${c.orderId}` });
    const [after] = await effectOf(c.actionId);
    expect(after).toMatchObject({ status: "succeeded", attempts: 3, providerRef: at[0]!.id });
    expect(await outcomes(c.actionId)).toEqual(["retry", "reconciled"]);
    const posts = stripe.requests.filter(
      (r) => r.method === "POST" && r.key === after!.idempotencyKey,
    );
    expect(posts).toHaveLength(1);
    expect(await effectOf(c.actionId, "mail.refund_succeeded")).toHaveLength(1);
  });
});

describe("three instances while Stripe forgets its idempotency keys", () => {
  it("each cancellation is refunded exactly once, whichever relay sent, retried or reconciled", {
    timeout: 180_000,
  }, async () => {
    const cases = [];
    for (let i = 0; i < 6; i++) cases.push(await confirmedCancellation(1500 + i * 11));
    // A refund applied, every key forgotten and the connection dropped: a client that simply
    // re-sent (the SDK's own retry did) would refund twice. Mixed with plain lost answers.
    stripe.fail("forget_keys_and_drop", "forget_keys_and_drop", "drop_after_apply", "drop");
    const relays = [worker("loop"), worker("loop"), worker("loop")];
    await Promise.all(relays.map((r) => r.ready));
    const ids = cases.map((c) => c.actionId);
    for (let i = 0; i < 1200; i++) {
      const open = (await Promise.all(ids.map((actionId) => listEffectsForAction({ actionId }))))
        .flat()
        .filter((e) => OPEN.has(e.status));
      if (open.length === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const r of relays) r.child.stdin!.end();
    expect(await Promise.all(relays.map((r) => r.done))).toEqual([0, 0, 0]);
    stripe.clearFaults();

    for (const c of cases) {
      const at = refundsAt(c.actionId);
      expect(at).toHaveLength(1);
      expect(at[0]!.amount).toBe(c.total);
      const [effect] = await effectOf(c.actionId);
      expect(effect).toMatchObject({ status: "succeeded", providerRef: at[0]!.id });
      expect(await effectOf(c.actionId, "mail.refund_succeeded")).toHaveLength(1);
    }
    // The faults were met: answers were lost after Stripe applied, and those refunds were found
    // by lookup (never sent again: one refund each, above).
    const all = (await Promise.all(ids.map((id) => outcomes(id)))).flat();
    expect(all).toContain("retry");
    expect(all).toContain("reconciled");
  });
});

describe("the SMTP server drops the connection in the middle of DATA", () => {
  type Received = { key: string; raw: string };
  let smtp: SMTPServer;
  let inbox: Received[] = [];
  let dropNext = true;
  const sockets = new Set<net.Socket>();

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, _session, cb) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => {
          if (dropNext) {
            // Part of the message is here; the server goes away before it is complete.
            dropNext = false;
            for (const s of sockets) s.destroy();
            return;
          }
          chunks.push(c);
        });
        stream.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          // A long header is folded onto the next line.
          const key = /^X-Returns-Desk-Effect:\s+(\S+)/im.exec(raw)?.[1] ?? "";
          if (raw) inbox.push({ key, raw });
          cb();
        });
      },
    });
    smtp.server.on("connection", (s: net.Socket) => {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()));
    const { port } = smtp.server.address() as net.AddressInfo;
    process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
    resetEnv();
  });

  afterAll(async () => {
    delete process.env.SMTP_URL;
    resetEnv();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it("the mail is sent again and delivered once; the refund beside it once", {
    timeout: 60_000,
  }, async () => {
    inbox = [];
    dropNext = true;
    const c = await confirmedCancellation(1900);
    const effects = await settle([c.actionId]);
    expect(dropNext).toBe(false);
    const mails = effects.filter((e) => e.kind.startsWith("mail."));
    expect(mails.map((m) => m.kind).sort()).toEqual([
      "mail.cancellation_confirmed",
      "mail.refund_succeeded",
    ]);
    for (const m of mails) {
      expect(m.status).toBe("succeeded");
      expect(inbox.filter((r) => r.key === m.idempotencyKey)).toHaveLength(1);
    }
    expect(inbox).toHaveLength(2);
    // The first message sent (the cancellation's, beside the refund's first attempt) met the
    // drop: an unknown outcome, retried, then delivered. The refund's mail went through at once.
    expect(mails.map((m) => [m.kind, m.attempts])).toEqual(
      expect.arrayContaining([
        ["mail.cancellation_confirmed", 2],
        ["mail.refund_succeeded", 1],
      ]),
    );
    const tried = (
      await getDb().select().from(auditEvents).where(eq(auditEvents.actionId, c.actionId))
    ).filter((e) => e.tool === "effect:mail.cancellation_confirmed");
    expect(tried.map((e) => [(e.result as { outcome: string }).outcome, e.errorCode])).toEqual([
      ["retry", "connection_error"],
      ["succeeded", null],
    ]);
    expect(refundsAt(c.actionId)).toHaveLength(1);
  });
});

describe.runIf(onPostgres())("the PostgreSQL connection cut in the middle of a transaction", () => {
  let proxy: TcpProxy;
  let direct: string;

  beforeAll(async () => {
    direct = core.file;
    const u = new URL(direct);
    proxy = await startTcpProxy({ host: u.hostname, port: Number(u.port || 5432) });
    u.hostname = "127.0.0.1";
    u.port = String(proxy.port);
    process.env.DATABASE_URL = u.toString();
    resetEnv();
  });

  afterAll(async () => {
    process.env.DATABASE_URL = direct;
    resetEnv();
    getDb();
    await proxy?.close();
  });

  const actionRow = async (id: string) =>
    (await getDb().select().from(pendingActions).where(eq(pendingActions.id, id)))[0]!;
  const orderRow = async (id: string) =>
    (await getDb().select().from(orders).where(eq(orders.id, id)))[0]!;

  it("during a confirm, before its outbox rows: rolled back, nothing applied, ever", async () => {
    const c = await proposedCancellation(2200);
    const cut = proxy.cutOnce({ when: 'insert into "effects"', at: "before" });
    await expect(confirmAction({ actionId: c.actionId, userId: core.anna })).rejects.toMatchObject({
      code: "internal_error",
    });
    await cut;
    // The claim and the order's cancellation went with the transaction.
    expect(await actionRow(c.actionId)).toMatchObject({
      status: "failed",
      errorCode: "commit_failed",
    });
    expect(await orderRow(c.orderId)).toMatchObject({ status: "processing", version: 1 });
    expect(await listEffectsForAction({ actionId: c.actionId })).toEqual([]);
    await expect(confirmAction({ actionId: c.actionId, userId: core.anna })).rejects.toThrow();
    while ((await runDueEffects()) > 0) {}
    expect(refundsAt(c.actionId)).toEqual([]);
  });

  it("during a confirm, its COMMIT's answer lost: committed once, refunded once", async () => {
    const c = await proposedCancellation(2400);
    const cut = proxy.cutOnce({ when: "commit\u0000", at: "after" });
    await expect(confirmAction({ actionId: c.actionId, userId: core.anna })).rejects.toMatchObject({
      code: "internal_error",
    });
    await cut;
    // The server ran the COMMIT: the action is executed (the failure path did not undo it).
    expect(await actionRow(c.actionId)).toMatchObject({ status: "executed" });
    expect(await orderRow(c.orderId)).toMatchObject({ status: "cancelled", version: 2 });
    // Confirming again changes nothing.
    await expect(confirmAction({ actionId: c.actionId, userId: core.anna })).rejects.toThrow();
    await settle([c.actionId]);
    expect(refundsAt(c.actionId)).toHaveLength(1);
    expect(await effectOf(c.actionId)).toMatchObject([{ status: "succeeded", attempts: 1 }]);
    expect(await effectOf(c.actionId, "mail.cancellation_confirmed")).toHaveLength(1);
  });

  it("during an effect record, after Stripe applied: the record is rolled back, the takeover reconciles", async () => {
    const c = await confirmedCancellation(2600);
    // Cut in the refund's record transaction: after its UPDATE, at its audit event.
    const cut = proxy.cutOnce({ when: "effect:payment.refund", at: "before" });
    while ((await runDueEffects()) > 0) {}
    await cut;
    expect(refundsAt(c.actionId)).toHaveLength(1);
    const [unrecorded] = await effectOf(c.actionId);
    expect(unrecorded).toMatchObject({ status: "in_flight", attempts: 1, providerRef: null });
    expect(await effectOf(c.actionId, "mail.refund_succeeded")).toEqual([]);

    await settle([c.actionId]);
    const at = refundsAt(c.actionId);
    expect(at).toHaveLength(1);
    const [after] = await effectOf(c.actionId);
    expect(after).toMatchObject({ status: "succeeded", attempts: 2, providerRef: at[0]!.id });
    expect(await outcomes(c.actionId)).toEqual(["reconciled"]);
    expect(await effectOf(c.actionId, "mail.refund_succeeded")).toHaveLength(1);
  });
});
