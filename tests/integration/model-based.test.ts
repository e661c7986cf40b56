/**
 * Model-based tests of the action and effect protocol: the code that formal/actions.pml models
 * (docs/formal.md), checked against the same properties. fast-check generates sequences of
 * customer steps (propose, revise, confirm, cancel, a handoff, a new chat), staff steps (approve,
 * reject, mark shipped, retry a queued effect), the sweep, the clock, relay passes, a relay that
 * dies holding its claim, and provider faults (the loopback Stripe server of
 * bench/lib/stripe-server.ts, through the real SDK); runs them against lib/ on a real database
 * (SQLite, and PostgreSQL in the postgres project); and after every step compares each action's
 * status with a small model and checks the invariants on the rows and at the provider. A run ends
 * by letting the relay settle (the model's liveness: nothing stays pending or in flight).
 * fc.scheduler orders the races: confirm against expire, approve against reject, receive against
 * receive, relay against relay. A failing case is printed shrunk (its steps, or the scheduler's
 * order).
 *
 * Bounded for CI; `npm run test:model -- --runs=500` runs it longer (MODEL_RUNS).
 */
import { eq, inArray } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StripeFault, type StripeServer, startStripeServer } from "@/bench/lib/stripe-server";
import { claimDueEffects, listEffectsForAction } from "@/db/queries/effects";
import {
  type ActionStatus,
  auditEvents,
  effects,
  orderCancellations,
  orderItems,
  orders,
  pendingActions,
} from "@/db/schema";
import { approveAction, rejectAction } from "@/lib/actions/approve";
import { cancelAction } from "@/lib/actions/cancel";
import { confirmAction } from "@/lib/actions/confirm";
import { executeToolCall } from "@/lib/actions/executor";
import { expireDueActions } from "@/lib/actions/lifecycle";
import { reviseAction } from "@/lib/actions/revise";
import { requestHandoff } from "@/lib/chat/handoff";
import { startChat } from "@/lib/chat/service";
import { runDueEffects, stopRelay } from "@/lib/effects/relay";
import { resetEnv } from "@/lib/env";
import { markOrderShipped } from "@/lib/orders/ship";
import { markReturnReceived } from "@/lib/returns/receive";
import { retryQueuedEffect } from "@/lib/work-queue/queue";
import { type Core, newChat, proposeWith, setupCore } from "./action-core/fixtures";

const TTL_S = 60;
const APPROVAL_TTL_H = 1;
const THRESHOLD = 50_000;
const ENV = {
  PENDING_ACTION_TTL_SECONDS: String(TTL_S),
  APPROVAL_TTL_HOURS: String(APPROVAL_TTL_H),
  APPROVAL_THRESHOLD_MINOR: String(THRESHOLD),
  STRIPE_TIMEOUT_MS: "300",
  EFFECTS_LEASE_SECONDS: "2",
  EFFECTS_RETRY_BASE_MS: "1",
  EFFECTS_RETRY_MAX_MS: "2",
  EFFECTS_MAX_ATTEMPTS: "4",
  // The model's clock runs a day behind the wall clock (below): the time budget must not end
  // every effect at its first unknown outcome.
  EFFECTS_MAX_AGE_SECONDS: String(30 * 86_400),
  EFFECTS_POLL_SECONDS: "3600",
};

/** The long mode: npm run test:model -- --runs=N. */
const RUNS = Number(process.env.MODEL_RUNS ?? 0) || 0;

let core: Core;
let stripe: StripeServer;
const usedIds = new Set<string>();
let nextId = 1100;

beforeAll(async () => {
  stripe = await startStripeServer();
  core = await setupCore({
    ...ENV,
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_API_BASE: stripe.url,
  });
  for (const o of await core.db.select({ id: orders.id }).from(orders)) usedIds.add(o.id);
});

afterAll(async () => {
  await stopRelay();
  await stripe?.close();
  for (const k of ["STRIPE_SECRET_KEY", "STRIPE_API_BASE", ...Object.keys(ENV)])
    delete process.env[k];
  resetEnv();
});

/** A four-digit order id no test used yet (the tools' schema takes exactly four digits). */
function freshOrderId(): string {
  while (usedIds.has(String(nextId))) nextId++;
  if (nextId > 9999) throw new Error("out of four-digit order ids: fewer runs, please");
  const id = String(nextId++);
  usedIds.add(id);
  return id;
}

async function insertOrder(opts: {
  status: "processing" | "delivered";
  total: number;
  at: Date;
}): Promise<string> {
  const id = freshOrderId();
  await core.db.insert(orders).values({
    id,
    userId: core.anna,
    status: opts.status,
    placedAt: new Date(opts.at.getTime() - 3 * 86_400_000),
    deliveredAt: opts.status === "delivered" ? new Date(opts.at.getTime() - 86_400_000) : null,
    totalMinor: opts.total,
    currency: "EUR",
    paymentMethod: "Visa •••• 4242",
    paymentRef: `pi_model${id}`,
    version: 1,
    updatedAt: opts.at,
  });
  await core.db
    .insert(orderItems)
    .values({ orderId: id, name: "Kettle", quantity: 1, unitPriceMinor: opts.total });
  return id;
}

const FINAL_EFFECT = new Set(["succeeded", "failed", "needs_attention", "resolved"]);
/** Statuses after which an action must never have executed (nor execute). */
const ENDED = new Set<ActionStatus>([
  "cancelled",
  "expired",
  "superseded",
  "rejected",
  "stale",
  "failed",
]);

/**
 * The properties of docs/formal.md on the real rows of some actions of one order, and at the
 * provider. Throws with what broke.
 */
async function checkInvariants(orderId: string, actionIds: string[]): Promise<void> {
  const acts =
    actionIds.length === 0
      ? []
      : await core.db.select().from(pendingActions).where(inArray(pendingActions.id, actionIds));
  const effs =
    actionIds.length === 0
      ? []
      : await core.db.select().from(effects).where(inArray(effects.actionId, actionIds));
  const events =
    actionIds.length === 0
      ? []
      : await core.db.select().from(auditEvents).where(inArray(auditEvents.actionId, actionIds));
  const cancellations = await core.db
    .select()
    .from(orderCancellations)
    .where(eq(orderCancellations.orderId, orderId));
  const refunds = stripe.refunds.filter((r) => r.payment_intent === `pi_model${orderId}`);
  const statusOf = new Map(acts.map((a) => [a.id, a.status]));

  // At most one execution per action; one cancellation (the business key) per order.
  for (const a of acts) {
    const executions = events.filter(
      (e) => e.actionId === a.id && e.tool === a.tool && e.status === "success",
    );
    expect(executions.length, `executions of ${a.id}`).toBeLessThanOrEqual(1);
    expect(executions.length, `${a.id} is ${a.status}`).toBe(a.status === "executed" ? 1 : 0);
  }
  expect(cancellations.length, "cancellations of the order").toBeLessThanOrEqual(1);
  // At most one refund applied at the provider for the order (so per effect).
  expect(refunds.length, "refunds at Stripe for the order").toBeLessThanOrEqual(1);
  // No effect without a decision: every effect's action executed; every refund has its effect.
  for (const e of effs) expect(statusOf.get(e.actionId), `effect ${e.kind}`).toBe("executed");
  for (const r of refunds) {
    const effect = effs.find(
      (e) => e.actionId === r.metadata.action_id && e.kind === "payment.refund",
    );
    expect(effect, `the effect behind refund ${r.id}`).toBeDefined();
  }
  // Nothing ended (rejected, expired, superseded...) ever executed.
  for (const a of acts) {
    if (!ENDED.has(a.status)) continue;
    expect(
      effs.filter((e) => e.actionId === a.id),
      `effects of ${a.status} ${a.id}`,
    ).toEqual([]);
    expect(
      cancellations.filter((c) => c.operationId === a.id),
      `cancellation by ${a.status} ${a.id}`,
    ).toEqual([]);
  }
  // The cancellation, if any, is an executed action's.
  for (const c of cancellations)
    if (statusOf.has(c.operationId)) expect(statusOf.get(c.operationId)).toBe("executed");
}

/** Runs the relay until every effect of these actions is final (retries are due within ms). */
async function settle(actionIds: string[]): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const open = (
      actionIds.length === 0
        ? []
        : await core.db.select().from(effects).where(inArray(effects.actionId, actionIds))
    ).filter((e) => !FINAL_EFFECT.has(e.status));
    if (open.length === 0) return;
    // A dead relay's claim lapses with its lease (2 s): the next claim takes it over.
    if ((await runDueEffects()) === 0) await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("effects never settled: something stays pending or in flight");
}

// ---------------------------------------------------------------------------------------------
// The model of one run: one order, the actions on it, a clock.

type ActionModel = {
  id: string;
  status: ActionStatus;
  expiresAt: number;
  approval: boolean;
  chat: number;
  revision: number;
};

type Model = {
  now: number;
  total: number;
  chat: number;
  actions: ActionModel[];
  /** The action whose cancellation is on record. */
  cancelledBy: string | null;
  shipped: boolean;
};

type Real = { orderId: string; chats: string[]; log: string[] };

const WAITING = new Set<ActionStatus>(["pending", "awaiting_approval"]);

/** A status as anyone would read it at `now`: a waiting action past its TTL is expired. */
function seen(status: ActionStatus, expiresAt: number, now: number): ActionStatus {
  return WAITING.has(status) && now >= expiresAt ? "expired" : status;
}

async function compare(m: Model, r: Real): Promise<void> {
  const ids = m.actions.map((a) => a.id);
  const rows =
    ids.length === 0
      ? []
      : await core.db.select().from(pendingActions).where(inArray(pendingActions.id, ids));
  for (const a of m.actions) {
    const row = rows.find((x) => x.id === a.id);
    expect(row, `action ${a.id}`).toBeDefined();
    expect(
      seen(row!.status, row!.expiresAt.getTime(), m.now),
      `status of action ${m.actions.indexOf(a)} after: ${r.log.join("; ")}`,
    ).toBe(seen(a.status, a.expiresAt, m.now));
  }
  await checkInvariants(r.orderId, ids);
}

/** What a confirm or an approval does once its claim succeeded (runConfirm's commit). */
function commit(m: Model, a: ActionModel): void {
  if (m.cancelledBy) a.status = "executed";
  else if (m.shipped) a.status = "stale";
  else {
    a.status = "executed";
    m.cancelledBy = a.id;
  }
}

const live = (m: Model, a: ActionModel) => m.now < a.expiresAt;

/** Runs a step that may refuse (an AppError): refusals are part of the protocol. */
async function refusable(work: () => Promise<unknown>): Promise<string> {
  try {
    await work();
    return "ok";
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (!code || code === "internal_error") throw err;
    return code;
  }
}

type Cmd = fc.AsyncCommand<Model, Real>;
const at = (m: Model) => new Date(m.now);
const pick = (m: Model, i: number) => m.actions[i % m.actions.length]!;

class Propose implements Cmd {
  check = () => true;
  async run(m: Model, r: Real) {
    const out = await executeToolCall(
      "cancel_order",
      { orderId: r.orderId, reason: "changed_mind", comment: null },
      { userId: core.anna, chatId: r.chats[m.chat]!, now: at(m) },
    );
    r.log.push(`propose:${out.kind}`);
    if (m.cancelledBy) expect(out.kind).toBe("existing");
    else if (m.shipped) expect(out).toMatchObject({ kind: "error", code: "already_shipped" });
    else {
      expect(out.kind).toBe("proposal");
      if (out.kind !== "proposal") return;
      // One pending action per chat and target: the newest wins.
      for (const a of m.actions)
        if (a.chat === m.chat && a.status === "pending") a.status = "superseded";
      m.actions.push({
        id: out.action.id,
        status: "pending",
        expiresAt: m.now + TTL_S * 1000,
        approval: m.total > THRESHOLD,
        chat: m.chat,
        revision: 0,
      });
    }
    await compare(m, r);
  }
  toString = () => "propose";
}

class Revise implements Cmd {
  constructor(readonly comment: string) {}
  check = (m: Readonly<Model>) => m.actions.some((a) => a.status === "pending");
  async run(m: Model, r: Real) {
    const a = [...m.actions].reverse().find((x) => x.status === "pending")!;
    let fresh: string | null = null;
    const code = await refusable(async () => {
      const out = await reviseAction({
        actionId: a.id,
        userId: core.anna,
        changes: { comment: this.comment },
        now: at(m),
      });
      fresh = out.action.id;
    });
    r.log.push(`revise:${code}`);
    if (!live(m, a)) {
      expect(code).toBe("expired");
      a.status = "expired";
    } else if (a.revision >= 5) expect(code).toBe("revision_limit");
    // plan() again, on the order as it is now: shipped or cancelled meanwhile, it refuses.
    else if (m.shipped || m.cancelledBy) expect(code).toBe("conflict");
    else {
      expect(code).toBe("ok");
      a.status = "superseded";
      m.actions.push({
        id: fresh!,
        status: "pending",
        expiresAt: m.now + TTL_S * 1000,
        approval: a.approval,
        chat: a.chat,
        revision: a.revision + 1,
      });
    }
    await compare(m, r);
  }
  toString = () => `revise(${JSON.stringify(this.comment)})`;
}

class Confirm implements Cmd {
  constructor(readonly i: number) {}
  check = (m: Readonly<Model>) => m.actions.length > 0;
  async run(m: Model, r: Real) {
    const a = pick(m, this.i);
    const code = await refusable(() =>
      confirmAction({ actionId: a.id, userId: core.anna, now: at(m) }),
    );
    r.log.push(`confirm#${m.actions.indexOf(a)}:${code}`);
    let expected = "refused";
    if (a.status === "pending" && live(m, a)) {
      if (a.approval) {
        a.status = "awaiting_approval";
        a.expiresAt = m.now + APPROVAL_TTL_H * 3_600_000;
      } else commit(m, a);
      expected = (a.status as ActionStatus) === "stale" ? "stale" : "ok";
    } else if (WAITING.has(a.status) && !live(m, a)) a.status = "expired";
    if (expected === "refused") expect(code).not.toBe("ok");
    else expect(code).toBe(expected);
    await compare(m, r);
  }
  toString = () => `confirm(${this.i})`;
}

class Cancel implements Cmd {
  constructor(readonly i: number) {}
  check = (m: Readonly<Model>) => m.actions.length > 0;
  async run(m: Model, r: Real) {
    const a = pick(m, this.i);
    const code = await refusable(() =>
      cancelAction({ actionId: a.id, userId: core.anna, now: at(m) }),
    );
    r.log.push(`cancel#${m.actions.indexOf(a)}:${code}`);
    const cancels = a.status === "pending" && live(m, a);
    if (cancels) a.status = "cancelled";
    else if (WAITING.has(a.status) && !live(m, a)) a.status = "expired";
    expect(code === "ok").toBe(cancels);
    await compare(m, r);
  }
  toString = () => `cancel(${this.i})`;
}

class Approve implements Cmd {
  constructor(readonly i: number) {}
  check = (m: Readonly<Model>) => m.actions.length > 0;
  async run(m: Model, r: Real) {
    const a = pick(m, this.i);
    const code = await refusable(() =>
      approveAction({ actionId: a.id, staffId: core.staff, now: at(m) }),
    );
    r.log.push(`approve#${m.actions.indexOf(a)}:${code}`);
    if (a.status === "awaiting_approval" && live(m, a)) commit(m, a);
    else if (WAITING.has(a.status) && !live(m, a)) a.status = "expired";
    await compare(m, r);
  }
  toString = () => `approve(${this.i})`;
}

class Reject implements Cmd {
  constructor(readonly i: number) {}
  check = (m: Readonly<Model>) => m.actions.length > 0;
  async run(m: Model, r: Real) {
    const a = pick(m, this.i);
    const code = await refusable(() =>
      rejectAction({ actionId: a.id, staffId: core.staff, reason: "model", now: at(m) }),
    );
    r.log.push(`reject#${m.actions.indexOf(a)}:${code}`);
    if (a.status === "awaiting_approval" && live(m, a)) a.status = "rejected";
    else if (WAITING.has(a.status) && !live(m, a)) a.status = "expired";
    await compare(m, r);
  }
  toString = () => `reject(${this.i})`;
}

class Tick implements Cmd {
  constructor(readonly seconds: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    m.now += this.seconds * 1000;
    r.log.push(`tick:${this.seconds}s`);
    await compare(m, r);
  }
  toString = () => `tick(${this.seconds}s)`;
}

class Sweep implements Cmd {
  check = () => true;
  async run(m: Model, r: Real) {
    await expireDueActions(at(m));
    r.log.push("sweep");
    for (const a of m.actions) if (WAITING.has(a.status) && !live(m, a)) a.status = "expired";
    await compare(m, r);
  }
  toString = () => "sweep";
}

class Handoff implements Cmd {
  check = () => true;
  async run(m: Model, r: Real) {
    await requestHandoff({ chatId: r.chats[m.chat]!, userId: core.anna, now: at(m) });
    r.log.push("handoff");
    for (const a of m.actions)
      if (a.chat === m.chat && a.status === "pending") a.status = "superseded";
    // The customer carries on in a chat of their own again.
    r.chats.push(await newChat(core.db, core.anna, at(m)));
    m.chat = r.chats.length - 1;
    await compare(m, r);
  }
  toString = () => "handoff";
}

class NewChat implements Cmd {
  check = () => true;
  async run(m: Model, r: Real) {
    const chat = await startChat({ userId: core.anna });
    r.chats.push(chat.id);
    r.log.push("new chat");
    m.chat = r.chats.length - 1;
    // Every pending proposal of the customer's other chats is superseded.
    for (const a of m.actions) if (a.status === "pending") a.status = "superseded";
    await compare(m, r);
  }
  toString = () => "newChat";
}

class Ship implements Cmd {
  check = (m: Readonly<Model>) => !m.shipped && !m.cancelledBy;
  async run(m: Model, r: Real) {
    await markOrderShipped({ orderId: r.orderId, staffId: core.staff, now: at(m) });
    r.log.push("ship");
    m.shipped = true;
    await compare(m, r);
  }
  toString = () => "ship";
}

/**
 * One relay pass: with a fault queued at the provider first (or none), and the provider
 * forgetting its keys after it (or not), the pattern every double refund needs.
 */
class Relay implements Cmd {
  constructor(
    readonly fault: StripeFault | null,
    readonly forget: boolean,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    if (this.fault) stripe.fail(this.fault);
    const n = await runDueEffects();
    if (this.forget) stripe.forgetKeys();
    r.log.push(`relay:${n}${this.fault ? `+${this.fault}` : ""}${this.forget ? "+forget" : ""}`);
    await compare(m, r);
  }
  toString = () => `relay(${this.fault ?? ""}${this.forget ? ", forget keys" : ""})`;
}

/** A relay that claimed due effects and died: its lease has lapsed when the next one looks. */
class RelayDies implements Cmd {
  check = () => true;
  async run(m: Model, r: Real) {
    const now = new Date();
    const n = await claimDueEffects({
      now,
      owner: "dead-relay",
      leaseUntil: new Date(now.getTime() - 1),
      limit: 10,
    });
    r.log.push(`relay dies holding ${n.length}`);
    await compare(m, r);
  }
  toString = () => "relayDies";
}

class Fault implements Cmd {
  constructor(readonly fault: StripeFault) {}
  check = () => true;
  async run(m: Model, r: Real) {
    stripe.fail(this.fault);
    r.log.push(`fault:${this.fault}`);
    await compare(m, r);
  }
  toString = () => `fault(${this.fault})`;
}

class ForgetKeys implements Cmd {
  check = () => true;
  async run(m: Model, r: Real) {
    stripe.forgetKeys();
    r.log.push("forget keys");
    await compare(m, r);
  }
  toString = () => "forgetKeys";
}

/** The provider unreachable (every request reset), or back. */
class ProviderDown implements Cmd {
  constructor(readonly down: boolean) {}
  check = () => true;
  async run(m: Model, r: Real) {
    stripe.setDown(this.down);
    r.log.push(this.down ? "provider down" : "provider up");
    await compare(m, r);
  }
  toString = () => (this.down ? "providerDown" : "providerUp");
}

class StaffRetry implements Cmd {
  check = (m: Readonly<Model>) => m.cancelledBy !== null;
  async run(m: Model, r: Real) {
    const refund = (await listEffectsForAction({ actionId: m.cancelledBy! })).find(
      (e) => e.kind === "payment.refund",
    );
    const code =
      refund && (refund.status === "failed" || refund.status === "needs_attention")
        ? await refusable(() =>
            retryQueuedEffect({ id: refund.id, staffId: core.staff, seen: refund.updatedAt }),
          )
        : "nothing to retry";
    r.log.push(`staff retry:${code}`);
    await compare(m, r);
  }
  toString = () => "staffRetry";
}

const FAULTS: StripeFault[] = [
  "drop",
  "drop_after_apply",
  "500_after_apply",
  "500_without_apply",
  "decline",
];
const slot = fc.nat({ max: 5 });
const relay = fc
  .record({ fault: fc.option(fc.constantFrom(...FAULTS), { nil: null }), forget: fc.boolean() })
  .map(({ fault, forget }) => new Relay(fault, forget));
const tick = fc
  .constantFrom(TTL_S / 2, TTL_S + 1, APPROVAL_TTL_H * 3600 + 1)
  .map((s) => new Tick(s));
/** Every step, the staff's decisions and the clock weighted up (the effect's life has its own). */
const COMMANDS = [
  fc.constant(new Propose()),
  fc.string({ unit: fc.constantFrom("a", "b", "c", " "), maxLength: 8 }).map((c) => new Revise(c)),
  slot.map((i) => new Confirm(i)),
  slot.map((i) => new Confirm(i)),
  slot.map((i) => new Cancel(i)),
  slot.map((i) => new Approve(i)),
  slot.map((i) => new Approve(i)),
  slot.map((i) => new Reject(i)),
  slot.map((i) => new Reject(i)),
  tick,
  tick,
  fc.constant(new Sweep()),
  fc.constant(new Handoff()),
  fc.constant(new NewChat()),
  fc.constant(new Ship()),
  relay,
  fc.constant(new RelayDies()),
  fc.constantFrom(...FAULTS).map((f) => new Fault(f)),
  fc.constant(new ForgetKeys()),
  fc.constant(new StaffRetry()),
];

/** The effect's life alone: a confirmed cancellation, then relay passes, faults and staff. */
const EFFECT_COMMANDS = [
  relay,
  relay,
  relay,
  fc.constant(new RelayDies()),
  fc.constant(new ForgetKeys()),
  fc.boolean().map((down) => new ProviderDown(down)),
  fc.constant(new StaffRetry()),
];

/**
 * One generated run: a fresh order and chat, `prefix` then the generated steps, each followed by
 * the model's comparison and the invariants; then the faults end, the provider prunes its keys
 * (Stripe keeps them about a day: what is left must be settled by lookups, not by keys) and the
 * relay must settle every effect (the model's liveness).
 */
async function modelRun(total: number, prefix: Cmd[], cmds: Iterable<Cmd>): Promise<void> {
  // A day behind the wall clock: the relay's own clock (real time) always finds the effects
  // due, however far the model's clock is moved on.
  const now = Date.now() - 86_400_000;
  const orderId = await insertOrder({ status: "processing", total, at: new Date(now) });
  const chat = await newChat(core.db, core.anna, new Date(now));
  const model: Model = { now, total, chat: 0, actions: [], cancelledBy: null, shipped: false };
  const real: Real = { orderId, chats: [chat], log: [] };
  stripe.clearFaults();
  try {
    await fc.asyncModelRun(() => ({ model, real }), [...prefix, ...cmds]);
    stripe.clearFaults();
    stripe.setDown(false);
    stripe.forgetKeys();
    const ids = model.actions.map((a) => a.id);
    await settle(ids);
    await checkInvariants(orderId, ids);
    if (model.cancelledBy) {
      const refund = (await listEffectsForAction({ actionId: model.cancelledBy })).filter(
        (e) => e.kind === "payment.refund",
      );
      expect(refund).toHaveLength(1);
      const atStripe = stripe.refunds.filter((x) => x.payment_intent === `pi_model${orderId}`);
      // Succeeded means refunded exactly once; failed (declined) means not at all.
      if (refund[0]!.status === "succeeded") expect(atStripe).toHaveLength(1);
      if (refund[0]!.status === "failed") expect(atStripe).toHaveLength(0);
    }
  } finally {
    stripe.clearFaults();
    stripe.setDown(false);
  }
}

/**
 * Runs tried before the generated ones: the shapes of formal/actions.pml's counterexamples
 * (docs/formal.md), each a few steps that random generation reaches only now and then.
 */
const SEEDED: [number, Cmd[]][] = [
  // A claim after the action ended (cancelled, superseded by a revision).
  [4500, [new Cancel(0), new Confirm(0)]],
  [4500, [new Revise("x"), new Confirm(0), new Confirm(1)]],
  // Staff deciding after the approval's TTL: it expired, whoever looks first.
  [60_000, [new Confirm(0), new Tick(APPROVAL_TTL_H * 3600 + 1), new Reject(0)]],
  [60_000, [new Confirm(0), new Tick(APPROVAL_TTL_H * 3600 + 1), new Approve(0)]],
  // A confirm after the TTL, and a shipment before the confirm.
  [4500, [new Tick(TTL_S + 1), new Confirm(0)]],
  [4500, [new Ship(), new Confirm(0)]],
  // A second chat's proposal while the first waits for staff, both then decided.
  [60_000, [new Confirm(0), new NewChat(), new Propose(), new Approve(0), new Confirm(1)]],
];
const SEEDED_EFFECT: Cmd[][] = [
  // Applied, answer lost; the keys pruned: only the lookup stands between us and a second refund.
  [new Relay("500_after_apply", true), new Relay(null, false)],
  [new Relay("drop_after_apply", true), new Relay(null, false)],
  // A relay dies holding the claim; the next one takes it over.
  [new RelayDies(), new Relay(null, false)],
  // Applied, then the provider is unreachable until the attempts run out (needs_attention);
  // staff retry once it is back and has pruned its keys: the retry looks it up first.
  [
    new Relay("500_after_apply", false),
    new ProviderDown(true),
    new Relay(null, false),
    new Relay(null, false),
    new Relay(null, false),
    new ProviderDown(false),
    new ForgetKeys(),
    new StaffRetry(),
    new Relay(null, false),
  ],
  // Refused for good, then retried by staff: looked up before it is sent again.
  [new Relay("decline", false), new StaffRetry(), new Relay(null, true)],
];

describe("the protocol, step by step against its model", () => {
  it("keeps every property after every step, and settles", { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(4500, 60_000),
        fc.commands(COMMANDS, { maxCommands: 20 }),
        (total, cmds) => modelRun(total, [new Propose()], cmds),
      ),
      {
        numRuns: RUNS || 80,
        examples: SEEDED.map(([total, cmds]) => [total, cmds] as [number, Iterable<Cmd>]),
      },
    );
  });

  it("a confirmed refund under faults: refunded once, or not at all", {
    timeout: 120_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(EFFECT_COMMANDS, { maxCommands: 8 }), (cmds) =>
        modelRun(4500, [new Propose(), new Confirm(0)], cmds),
      ),
      // A dropped connection costs the SDK's half-second resend: fewer runs than above.
      { numRuns: RUNS || 40, examples: SEEDED_EFFECT.map((cmds) => [cmds] as [Iterable<Cmd>]) },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Races, ordered by fc.scheduler: it decides in which order the racing calls start; from there
// they run concurrently (on PostgreSQL over separate connections).

type Scheduler = fc.Scheduler;

/** Starts each task when the scheduler releases its turn; resolves to their settled results. */
async function race<T>(s: Scheduler, tasks: Record<string, () => Promise<T>>) {
  const started = Object.entries(tasks).map(([label, task]) =>
    s.schedule(Promise.resolve(label)).then(() =>
      task().then(
        (value) => ({ label, ok: true as const, value }),
        (error: unknown) => ({ label, ok: false as const, error }),
      ),
    ),
  );
  await s.waitAll();
  return await Promise.all(started);
}

async function proposedCancellation(total: number, now: Date) {
  const orderId = await insertOrder({ status: "processing", total, at: now });
  const chatId = await newChat(core.db, core.anna, now);
  const action = await proposeWith(
    "cancel_order",
    core.anna,
    chatId,
    { orderId, reason: "changed_mind", comment: null },
    { now },
  );
  return { orderId, actionId: action.id };
}

async function statusOf(actionId: string): Promise<ActionStatus> {
  const [row] = await core.db.select().from(pendingActions).where(eq(pendingActions.id, actionId));
  return row!.status;
}

/**
 * MODEL_FORGET_IN_FLIGHT=1 also lets the provider forget its keys while another relay's request
 * is on the wire. A client library that resends a request by itself after a dropped connection
 * (the Stripe SDK does, whatever maxNetworkRetries says) then refunds twice: the resend reaches
 * a provider that no longer knows the key, and no lookup came first. Off by default until no
 * request reaches the provider except through the relay's decision.
 */
const FORGET_IN_FLIGHT = process.env.MODEL_FORGET_IN_FLIGHT === "1";

const SCHEDULED_RUNS = RUNS ? Math.max(10, Math.round(RUNS / 5)) : 10;

describe("races, in every order the scheduler picks", () => {
  it("confirm against expire: executed or expired, never both", { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.boolean(), async (s, confirmInTime) => {
        const t0 = new Date(Date.now() - 86_400_000);
        const c = await proposedCancellation(4500, t0);
        const deadline = t0.getTime() + TTL_S * 1000;
        const results = await race<unknown>(s, {
          confirm: () =>
            confirmAction({
              actionId: c.actionId,
              userId: core.anna,
              now: new Date(confirmInTime ? deadline - 1 : deadline),
            }),
          sweep: () => expireDueActions(new Date(deadline)),
        });
        const status = await statusOf(c.actionId);
        expect(["executed", "expired"]).toContain(status);
        if (!confirmInTime) expect(status).toBe("expired");
        const confirmed = results.find((x) => x.label === "confirm")!;
        expect(confirmed.ok).toBe(status === "executed");
        await checkInvariants(c.orderId, [c.actionId]);
        await settle([c.actionId]);
        await checkInvariants(c.orderId, [c.actionId]);
      }),
      { numRuns: SCHEDULED_RUNS },
    );
  });

  it("approve against reject: one of them decides", { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.nat({ max: 2 }), async (s, extraApprovals) => {
        const now = new Date();
        const c = await proposedCancellation(60_000, now);
        await confirmAction({ actionId: c.actionId, userId: core.anna, now });
        expect(await statusOf(c.actionId)).toBe("awaiting_approval");
        const tasks: Record<string, () => Promise<unknown>> = {
          reject: () =>
            rejectAction({ actionId: c.actionId, staffId: core.staff, reason: "no", now }),
        };
        for (let i = 0; i <= extraApprovals; i++)
          tasks[`approve${i}`] = () =>
            approveAction({ actionId: c.actionId, staffId: core.staff, now });
        const results = await race(s, tasks);
        const status = await statusOf(c.actionId);
        expect(["executed", "rejected"]).toContain(status);
        expect(results.filter((x) => x.ok)).toHaveLength(1);
        const winner = results.find((x) => x.ok)!.label;
        expect(winner === "reject").toBe(status === "rejected");
        await settle([c.actionId]);
        await checkInvariants(c.orderId, [c.actionId]);
      }),
      { numRuns: SCHEDULED_RUNS },
    );
  });

  it("receive against receive: one refund", { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 2, max: 4 }), async (s, n) => {
        const now = new Date();
        const orderId = await insertOrder({ status: "delivered", total: 4500, at: now });
        const chatId = await newChat(core.db, core.anna, now);
        const action = await proposeWith("create_return_request", core.anna, chatId, {
          orderId,
          reason: "damaged",
          comment: null,
        });
        const done = await confirmAction({ actionId: action.id, userId: core.anna });
        const requestId = (done.result as unknown as { requestId: string }).requestId;
        const tasks: Record<string, () => Promise<unknown>> = {};
        for (let i = 0; i < n; i++)
          tasks[`receive${i}`] = () => markReturnReceived({ requestId, staffId: core.staff });
        const results = await race(s, tasks);
        expect(results.filter((x) => x.ok)).toHaveLength(1);
        for (const x of results.filter((y) => !y.ok))
          expect((x as { error: { code?: string } }).error.code).toBe("conflict");
        const refunds = (await listEffectsForAction({ actionId: action.id })).filter(
          (e) => e.kind === "payment.refund",
        );
        expect(refunds).toHaveLength(1);
        await settle([action.id]);
        expect(
          stripe.refunds.filter((r) => r.payment_intent === `pi_model${orderId}`),
        ).toHaveLength(1);
      }),
      { numRuns: SCHEDULED_RUNS },
    );
  });

  it("relay against relay, with faults: one refund per cancellation", {
    timeout: 60_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(fc.constantFrom(...FAULTS), { maxLength: 4 }),
        fc.boolean(),
        async (s, faults, forget) => {
          stripe.clearFaults();
          const now = new Date();
          const cs = [];
          for (let i = 0; i < 3; i++) {
            const c = await proposedCancellation(4500, now);
            await confirmAction({ actionId: c.actionId, userId: core.anna, now });
            cs.push(c);
          }
          stripe.fail(...faults);
          const pass = async () => {
            await runDueEffects({ limit: 2 });
            // Keys forgotten while a request is on the wire: see FORGET_IN_FLIGHT.
            if (forget && FORGET_IN_FLIGHT) stripe.forgetKeys();
          };
          for (let round = 0; round < 3; round++) {
            await race(s, { relayA: pass, relayB: pass, relayC: pass });
            // Between rounds no request is on the wire: the provider forgets what it answered.
            if (forget) stripe.forgetKeys();
          }
          stripe.clearFaults();
          const ids = cs.map((c) => c.actionId);
          await settle(ids);
          for (const c of cs) {
            await checkInvariants(c.orderId, [c.actionId]);
            const [refund] = (await listEffectsForAction({ actionId: c.actionId })).filter(
              (e) => e.kind === "payment.refund",
            );
            const atStripe = stripe.refunds.filter(
              (r) => r.payment_intent === `pi_model${c.orderId}`,
            );
            if (refund!.status === "succeeded") expect(atStripe).toHaveLength(1);
          }
        },
      ),
      { numRuns: SCHEDULED_RUNS },
    );
  });
});
