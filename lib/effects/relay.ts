/**
 * The effects relay: one per server process (started in lib/startup.ts). It claims due effects
 * from the outbox with a lease, calls the provider with the effect's idempotency key outside any
 * database transaction, and records the outcome (plus one audit event of the action) only while
 * it still holds the lease. docs/effects.md has the states and what each fault does.
 *
 * - A confirm rings the relay of its own process after COMMIT (lib/effects/signal.ts), so the
 *   happy path waits for no poll; it also polls (EFFECTS_POLL_SECONDS), sleeping no longer than
 *   until the next retry is due, for retries and for what other processes or a crash left.
 * - An unknown outcome (timeout, connection reset, 5xx, 429, 409) is retried with exponential
 *   backoff and jitter; a definite refusal (other 4xx) ends `failed`; after EFFECTS_MAX_ATTEMPTS
 *   attempts or EFFECTS_MAX_AGE_SECONDS, an unknown outcome ends `needs_attention`.
 * - Every attempt after the first starts by asking the provider whether the effect already
 *   exists (reconciliation): an attempt whose outcome is unknown is never simply sent again.
 * - The claim counts the attempt and the lease expires (EFFECTS_LEASE_SECONDS), so an effect
 *   whose relay was killed mid-call is taken over by another relay (or the restarted one), whose
 *   attempt then begins with that lookup.
 * - After a provider's configuration changes, its kind's first effects go one at a time under
 *   the integration canary (./canary.ts): each one's success is confirmed by a lookup before the
 *   next is released, and a failure holds the rest as needs_attention.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import os from "node:os";
import type { z } from "zod";
import { getActionById } from "@/db/queries/actions";
import {
  canaryEffectsNextAt,
  claimEffectById,
  confirmCanaryEffect,
  type EffectCanaryRow,
  getEffectCanary,
  holdCanary,
  holdPendingEffectsOfKind,
  oldestDueEffectOfKind,
  releaseCanarySlot,
  takeCanarySlot,
} from "@/db/queries/effect-canaries";
import {
  claimDueEffects,
  type EffectOutcomeSet,
  type EffectRow,
  getEffect,
  nextDueAt,
  recordEffectOutcome,
} from "@/db/queries/effects";
import { releaseStoreOperationKey } from "@/db/queries/store-operations";
import { writeTransaction } from "@/db/queries/tx";
import type { AuditStatus } from "@/db/schema";
import { recordAudit } from "@/lib/audit-log/record";
import { env } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { store } from "@/lib/store";
import { ORDER_CHANGED_AT_STORE } from "@/lib/store/types";
import { type CanaryGate, canaryGates } from "./canary";
import {
  EFFECT_PAYLOADS,
  type EffectKind,
  effectAuditTool,
  isStoreWrite,
  STORE_CANCEL_PAYLOAD,
} from "./kinds";
import { mailAfterRefund } from "./mail/compose";
import { renderMail } from "./mail/render";
import { mailTransport } from "./mail/transport";
import { enqueueFollowUps, idempotencyKey } from "./outbox";
import { alertHook, paymentsProvider, warehouseHook } from "./providers";
import type { EffectRef, LookupOutcome, SendOutcome } from "./providers/types";
import { replanAfter, replanner } from "./replan";
import { setRelayBell } from "./signal";

/** What one attempt came to; each is one audit event of the action. */
export type AttemptOutcome = "succeeded" | "reconciled" | "retry" | "failed" | "needs_attention";

const AUDIT_STATUS: Record<AttemptOutcome, AuditStatus> = {
  succeeded: "success",
  reconciled: "success",
  // The provider refused for good (a declined refund): its decision, not our fault.
  failed: "business_error",
  retry: "technical_error",
  needs_attention: "technical_error",
};

/** This process's name among relays; each claim adds a token of its own. */
const RELAY_ID = `${os.hostname()}:${process.pid}`;
const BATCH = 10;

type Handler = {
  send(payload: unknown, ref: EffectRef): Promise<SendOutcome>;
  lookup(payload: unknown, ref: EffectRef): Promise<LookupOutcome>;
  /**
   * Whether the lookup can confirm a success (a webhook cannot be looked up: under the canary
   * its receiver's 2xx is the only confirmation there is).
   */
  reconciles?: false;
};

/** How each kind of effect is carried out and looked up (one case per kind). */
function handlerFor(kind: EffectKind): Handler {
  switch (kind) {
    case "payment.refund": {
      const provider = paymentsProvider();
      const parse = (p: unknown) => EFFECT_PAYLOADS["payment.refund"].parse(p);
      return {
        send: (p, ref) => provider.refund(parse(p), ref),
        lookup: (p, ref) => provider.findRefund(parse(p), ref),
      };
    }
    case "mail.return_confirmed":
    case "mail.cancellation_confirmed":
    case "mail.refund_succeeded":
    case "mail.refund_failed": {
      const transport = mailTransport();
      return {
        send: async (p, ref) => {
          const payload = EFFECT_PAYLOADS[kind].parse(p);
          const mail = await renderMail(kind, payload);
          return transport.send({ ...mail, to: payload.to, key: ref.idempotencyKey });
        },
        lookup: (_p, ref) => transport.find({ key: ref.idempotencyKey }),
      };
    }
    case "store.cancel_order": {
      const { cancel, findCancel } = store();
      return storeHandler(kind, cancel, findCancel, (p, operationId) => ({ ...p, operationId }));
    }
    case "store.create_return": {
      const { requestReturn, findReturn } = store();
      return storeHandler(kind, requestReturn, findReturn, (p, operationId) => ({
        ...p,
        operationId,
      }));
    }
    case "store.receive_return": {
      const { receiveReturn, findReceipt } = store();
      return storeHandler(kind, receiveReturn, findReceipt, (p, operationId) => ({
        storeOrderRef: p.storeOrderRef,
        operationId,
        amountMinor: p.amount,
        currency: p.currency,
      }));
    }
    case "store.change_address": {
      const { changeAddress, findAddressChange } = store();
      return storeHandler(kind, changeAddress, findAddressChange, (p, operationId) => ({
        storeOrderRef: p.storeOrderRef,
        expectedUpdatedAt: p.expectedUpdatedAt,
        operationId,
        address: p.to,
      }));
    }
    case "store.exchange_items": {
      const { exchangeItems, findExchange } = store();
      return storeHandler(kind, exchangeItems, findExchange, (p, operationId) => ({
        storeOrderRef: p.storeOrderRef,
        expectedUpdatedAt: p.expectedUpdatedAt,
        operationId,
        kind: p.kind,
        lineId: p.lineId,
        quantity: p.quantity,
        toVariantId: p.toVariantId,
        refundMinor: p.refund,
        currency: p.currency,
      }));
    }
    case "warehouse.address_changed": {
      const hook = warehouseHook();
      const parse = (p: unknown) => EFFECT_PAYLOADS["warehouse.address_changed"].parse(p);
      // Configured at the confirm, removed since: nothing to send to, for good.
      if (!hook) {
        const off = async () => ({ kind: "definite" as const, code: "webhook_not_configured" });
        return { send: off, lookup: off };
      }
      return {
        send: (p) => hook.send(parse(p)),
        lookup: () => hook.lookup(),
        reconciles: false,
      };
    }
    case "warehouse.event": {
      const hook = warehouseHook();
      const parse = (p: unknown) => EFFECT_PAYLOADS["warehouse.event"].parse(p);
      if (!hook) {
        const off = async () => ({ kind: "definite" as const, code: "webhook_not_configured" });
        return { send: off, lookup: off };
      }
      return {
        send: (p) => hook.sendEvent(parse(p)),
        lookup: () => hook.lookup(),
        reconciles: false,
      };
    }
    case "action.replan": {
      // The executor a higher layer registered (./replan.ts). None registered is a process set
      // up wrongly, not a refusal: the effect waits, retried, and ends in staff's queue.
      const r = replanner();
      const parse = (p: unknown) => EFFECT_PAYLOADS["action.replan"].parse(p);
      if (!r) {
        const off = async () => ({
          kind: "indeterminate" as const,
          code: "replanner_not_registered",
        });
        return { send: off, lookup: off };
      }
      return {
        send: (p, ref) => r.propose(parse(p), ref),
        lookup: (p, ref) => r.find(parse(p), ref),
      };
    }
    case "alert.raised": {
      const hook = alertHook();
      const parse = (p: unknown) => EFFECT_PAYLOADS["alert.raised"].parse(p);
      if (!hook) {
        const off = async () => ({ kind: "definite" as const, code: "webhook_not_configured" });
        return { send: off, lookup: off };
      }
      return { send: (p) => hook.send(parse(p)), lookup: () => hook.lookup() };
    }
  }
}

type StoreKind = Extract<EffectKind, `store.${string}`>;

/**
 * A write at the connected store (lib/store): the payload parsed, the operation id (the action's)
 * added. Stored when the store was Medusa, and it no longer is: nowhere to send it, for good.
 */
function storeHandler<K extends StoreKind, Op>(
  kind: K,
  send: ((op: Op) => Promise<SendOutcome>) | undefined,
  lookup: ((op: Op) => Promise<LookupOutcome>) | undefined,
  toOp: (payload: z.output<(typeof EFFECT_PAYLOADS)[K]>, operationId: string) => Op,
): Handler {
  if (!send || !lookup) {
    const off = async () => ({ kind: "definite" as const, code: "store_not_configured" });
    return { send: off, lookup: off };
  }
  const op = (p: unknown, ref: EffectRef) =>
    toOp(EFFECT_PAYLOADS[kind].parse(p) as z.output<(typeof EFFECT_PAYLOADS)[K]>, ref.operationId);
  return { send: (p, ref) => send(op(p, ref)), lookup: (p, ref) => lookup(op(p, ref)) };
}

/** Exponential backoff with jitter: half to all of base x 2^(attempt-1), capped. */
export function backoffMs(attempt: number, base: number, cap: number, random = Math.random) {
  const ceiling = Math.min(cap, base * 2 ** Math.min(30, Math.max(0, attempt - 1)));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

type Decision = {
  outcome: AttemptOutcome;
  set: EffectOutcomeSet;
  code: string | null;
  /** What the provider said first in this attempt, for the audit (lookup, send). */
  steps: string[];
};

async function decide(effect: EffectRow, now: () => Date): Promise<Decision> {
  const e = env();
  const steps: string[] = [];
  const kind = effect.kind as EffectKind;
  // Own keys only: a stored kind such as "constructor" is unknown, not Object's.
  const known = Object.hasOwn(EFFECT_PAYLOADS, kind);
  if (!known || !EFFECT_PAYLOADS[kind].safeParse(effect.payload).success) {
    const code = known ? "invalid_payload" : "unknown_kind";
    return { outcome: "failed", code, steps, set: settled("failed", now(), code) };
  }
  const handler = handlerFor(kind);
  const ref = refOf(effect);
  let looked: LookupOutcome | null = null;
  // An earlier attempt's outcome is unknown (or its relay died mid-call): ask before sending.
  // Staff's retry resets the attempts but keeps the last error: it was attempted before, too.
  if (effect.attempts > 1 || effect.lastErrorCode !== null) {
    looked = await handler.lookup(effect.payload, ref);
    steps.push(`lookup:${looked.kind}`);
    if (looked.kind === "found") {
      return {
        outcome: "reconciled",
        code: null,
        steps,
        set: { ...settled("succeeded", now(), null), providerRef: looked.providerRef },
      };
    }
    if (looked.kind === "definite") {
      return {
        outcome: "failed",
        code: looked.code,
        steps,
        set: settled("failed", now(), looked.code),
      };
    }
  }
  const sent: SendOutcome =
    looked?.kind === "indeterminate" ? looked : await handler.send(effect.payload, ref);
  if (looked?.kind !== "indeterminate") steps.push(`send:${sent.kind}`);
  const at = now();
  if (sent.kind === "succeeded") {
    return {
      outcome: "succeeded",
      code: null,
      steps,
      set: { ...settled("succeeded", at, null), providerRef: sent.providerRef },
    };
  }
  if (sent.kind === "definite") {
    return { outcome: "failed", code: sent.code, steps, set: settled("failed", at, sent.code) };
  }
  const exhausted =
    effect.attempts >= e.EFFECTS_MAX_ATTEMPTS ||
    // After staff's retry the time budget starts again, like the attempts.
    at.getTime() - (effect.retriedAt ?? effect.createdAt).getTime() >=
      e.EFFECTS_MAX_AGE_SECONDS * 1000;
  if (exhausted) {
    return {
      outcome: "needs_attention",
      code: sent.code,
      steps,
      set: settled("needs_attention", at, sent.code),
    };
  }
  const delay = backoffMs(effect.attempts, e.EFFECTS_RETRY_BASE_MS, e.EFFECTS_RETRY_MAX_MS);
  return {
    outcome: "retry",
    code: sent.code,
    steps,
    set: {
      status: "pending",
      lastErrorCode: sent.code,
      nextAttemptAt: new Date(at.getTime() + delay),
      // The provider replayed a stored server error for this key, and it holds no such effect
      // (we just asked): the same key can only ever get that error again, so the next attempt
      // uses a new one. Safe: nothing is in flight under the old key (its answer was stored).
      ...(sent.replayed && looked?.kind === "absent"
        ? { idempotencyKey: idempotencyKey(effect.actionId, kind, effect.attempts + 1) }
        : {}),
    },
  };
}

const refOf = (effect: EffectRow): EffectRef => ({
  effectId: effect.id,
  actionId: effect.actionId,
  operationId: effect.actionId,
  idempotencyKey: effect.idempotencyKey,
});

/** What an attempt under the canary means for it: confirmed, held, or still waiting (a retry). */
type CanaryVerdict = "confirmed" | "held" | "waiting";

/**
 * The canary's reconciliation: a success is confirmed only when the provider, asked afterwards,
 * shows it (the same lookup a retry makes). A success it cannot show leaves the actual result
 * unknown: the effect needs a person (`canary_unconfirmed`) and the canary is held.
 */
async function reconcileCanary(
  effect: EffectRow,
  d: Decision,
): Promise<{ d: Decision; verdict: CanaryVerdict }> {
  if (d.outcome === "reconciled") return { d, verdict: "confirmed" };
  if (d.outcome === "retry") return { d, verdict: "waiting" };
  if (d.outcome !== "succeeded") return { d, verdict: "held" };
  const handler = handlerFor(effect.kind as EffectKind);
  if (handler.reconciles === false) {
    d.steps.push("canary:delivered");
    return { d, verdict: "confirmed" };
  }
  const looked = await handler.lookup(effect.payload, refOf(effect));
  d.steps.push(`canary-lookup:${looked.kind}`);
  if (looked.kind === "found") return { d, verdict: "confirmed" };
  const code = "canary_unconfirmed";
  return {
    verdict: "held",
    d: {
      ...d,
      outcome: "needs_attention",
      code,
      set: { ...d.set, status: "needs_attention", lastErrorCode: code },
    },
  };
}

function settled(
  status: "succeeded" | "failed" | "needs_attention",
  at: Date,
  code: string | null,
): EffectOutcomeSet {
  return { status, lastErrorCode: code, settledAt: at };
}

/**
 * A provider's codes and ids are outside input: kept as short plain tokens (PostgreSQL text
 * cannot hold NUL, and staff read them on the audit page).
 */
function token<T extends string | null | undefined>(value: T, max = 100): T | string {
  if (value === null || value === undefined) return value;
  return value.replace(/[^A-Za-z0-9_.:-]/g, "").slice(0, max) || "unknown";
}

/**
 * Whether this outcome ended a refund the customer is told of by mail: ours (succeeded or
 * failed), a received store return's refund at the store (succeeded or failed), or a store cancel
 * that went through (Medusa's cancel refunds the captured payment; a refused cancel refunded
 * nothing, so no mail says it failed).
 */
async function refundEnded(row: EffectRow): Promise<boolean> {
  switch (row.kind) {
    case "payment.refund":
    case "store.receive_return":
      return row.status === "succeeded" || row.status === "failed";
    case "store.cancel_order":
      return row.status === "succeeded";
    // Stryker disable next-line ConditionalExpression: without its return the switch ends and the function returns undefined, which the caller reads as false just the same
    default:
      // Stryker disable next-line BooleanLiteral: mailAfterRefund finds no refund of any other kind (refundFacts), so true would enqueue no mail either
      return false;
  }
}

/** One attempt at one claimed effect: the provider call(s), then the record and its audit. */
async function attempt(
  effect: EffectRow,
  owner: string,
  gate?: CanaryGate,
): Promise<AttemptOutcome | null> {
  const started = performance.now();
  let d = await decide(effect, () => new Date());
  let verdict: CanaryVerdict | null = null;
  if (gate) ({ d, verdict } = await reconcileCanary(effect, d));
  const at = new Date();
  const set = {
    ...d.set,
    lastErrorCode: token(d.set.lastErrorCode),
    providerRef: token(d.set.providerRef, 255),
  };
  return await writeTransaction(async () => {
    const row = await recordEffectOutcome({ id: effect.id, owner, now: at, set });
    // The lease lapsed and another relay took the effect over: its attempt decides, not ours.
    if (!row) return null;
    let canary: EffectCanaryRow | null = null;
    if (gate && verdict !== "waiting") {
      const c = { kind: gate.kind, fingerprint: gate.fingerprint, effectId: effect.id, now: at };
      canary =
        verdict === "confirmed"
          ? await confirmCanaryEffect(c)
          : await holdCanary({ ...c, code: set.lastErrorCode ?? null });
    }
    const action = await getActionById({ id: effect.actionId });
    // A refund that ended tells the customer, in this same transaction: the mail exists if and
    // only if the outcome was recorded (one per action and kind, whoever records it).
    const followUps = (await refundEnded(row))
      ? await mailAfterRefund({
          effect: row,
          action,
          outcome: row.status as "succeeded" | "failed",
        })
      : [];
    // The confirm's mail of a write at the store, held until the store applied it: sent now, and
    // never when the store refused (the customer's card and chat say what happened instead).
    if (isStoreWrite(row.kind) && row.status === "succeeded") {
      const held = STORE_CANCEL_PAYLOAD.shape.confirmationMail.safeParse(
        (row.payload as { confirmationMail?: unknown }).confirmationMail,
      );
      if (held.success && held.data) followUps.unshift(held.data);
    }
    // The store refused the write because the order changed there after the plan: nothing was
    // done, so the order's business key is freed and the fresh plan (`action.replan`, ./replan.ts)
    // is stored with this outcome: exactly one per refusal, whichever relay records it.
    const releasedBusinessKey =
      isStoreWrite(effect.kind) &&
      row.status === "failed" &&
      row.lastErrorCode === ORDER_CHANGED_AT_STORE &&
      (await releaseStoreOperationKey({ operationId: effect.actionId }));
    const enqueued = await enqueueFollowUps({
      actionId: effect.actionId,
      effects: [...followUps, ...replanAfter(row, action?.tool ?? null)],
      now: at,
    });
    await recordAudit({
      at,
      tool: effectAuditTool(effect.kind),
      access: "write",
      status: AUDIT_STATUS[d.outcome],
      errorCode: token(d.code),
      userId: action?.userId ?? null,
      chatId: action?.chatId ?? null,
      actionId: effect.actionId,
      durationMs: performance.now() - started,
      arguments: { effectId: effect.id, kind: effect.kind, attempt: effect.attempts },
      result: {
        outcome: d.outcome,
        effectId: effect.id,
        status: row.status,
        attempt: effect.attempts,
        steps: d.steps,
        providerRef: row.providerRef,
        nextAttemptAt: row.status === "pending" ? row.nextAttemptAt.toISOString() : null,
        // Which process's relay made the attempt (host:pid), for following an effect across
        // instances.
        relay: RELAY_ID,
        ...(enqueued.length > 0 ? { followUps: enqueued } : {}),
        ...(releasedBusinessKey ? { releasedBusinessKey: true } : {}),
        ...(gate
          ? {
              canary: {
                provider: gate.provider,
                fingerprint: gate.fingerprint,
                verdict,
                confirmed: canary?.confirmed ?? gate.confirmed,
                required: gate.required,
                status: canary?.status ?? gate.status,
              },
            }
          : {}),
      },
    });
    return d.outcome;
  });
}

/**
 * One pass: claim up to a batch of due effects and attempt each. Returns how many were claimed
 * (the loop runs passes until one claims nothing). Tests call it directly.
 */
export async function runDueEffects({ limit = BATCH }: { limit?: number } = {}): Promise<number> {
  const now = new Date();
  const owner = `${RELAY_ID}:${randomUUID().slice(0, 8)}`;
  const leaseUntil = new Date(now.getTime() + env().EFFECTS_LEASE_SECONDS * 1000);
  const gates = await canaryGates(now);
  lastGates = gates;
  for (const gate of gates) if (gate.status === "held") await holdPending(gate, now);
  const claimed: [EffectRow, CanaryGate | undefined][] = (
    await claimDueEffects({
      now,
      owner,
      leaseUntil,
      limit,
      excludeKinds: gates.map((g) => g.kind),
    })
  ).map((e) => [e, undefined]);
  for (const gate of gates) {
    if (gate.status !== "running") continue;
    const effect = await claimCanaryEffect(gate, { now, owner, leaseUntil });
    if (effect) claimed.push([effect, gate]);
  }
  await Promise.all(
    claimed.map(async ([effect, gate]) => {
      try {
        await attempt(effect, owner, gate);
      } catch (err) {
        // Recording failed (the database): the effect stays in flight until its lease lapses,
        // and the next claim's attempt begins with a lookup.
        log().error({ err: errorFields(err), effectId: effect.id }, "effect attempt failed");
      }
    }),
  );
  return claimed.length;
}

type RelayState = { timer?: NodeJS.Timeout; running: boolean; again: boolean; stopped: boolean };
const g = globalThis as unknown as { __returnsDeskRelay?: RelayState };

async function pump(state: RelayState): Promise<void> {
  if (state.stopped) return;
  if (state.running) {
    // Rung while a pass runs: run another pass after it, for what the new commit stored.
    state.again = true;
    return;
  }
  state.running = true;
  try {
    do {
      state.again = false;
      while (!state.stopped && (await runDueEffects()) > 0) {}
    } while (state.again && !state.stopped);
  } catch (err) {
    log().error({ err: errorFields(err) }, "effects relay pass failed");
  } finally {
    state.running = false;
  }
  await schedule(state);
}

/** The gates of the last pass (when to look again: a gated kind's waiting effects are not due). */
let lastGates: CanaryGate[] = [];

class SlotLost extends Error {}

/**
 * Under a running canary: the one effect released now, or null while another is unreconciled.
 * The canary's current effect is taken again when it is due (its retry, or its relay died);
 * otherwise the oldest due effect becomes current, by a conditional update only one relay wins.
 */
async function claimCanaryEffect(
  gate: CanaryGate,
  c: { now: Date; owner: string; leaseUntil: Date },
): Promise<EffectRow | null> {
  try {
    return await writeTransaction(async () => {
      const row = await getEffectCanary(gate);
      if (row?.status !== "running") return null;
      if (row.currentEffectId) {
        const id = row.currentEffectId;
        const current = await claimEffectById({ id, ...c });
        if (current) return current;
        // Settled outside this canary: the slot is free for the next one.
        const e = await getEffect({ id });
        if (!e || (e.status !== "pending" && e.status !== "in_flight"))
          await releaseCanarySlot({ ...gate, effectId: id, now: c.now });
        return null;
      }
      const id = await oldestDueEffectOfKind({ kind: gate.kind, now: c.now });
      if (!id) return null;
      if (!(await takeCanarySlot({ ...gate, effectId: id, now: c.now }))) return null;
      const claimed = await claimEffectById({ id, ...c });
      // Claimed by a relay of another configuration in between: the slot is not taken either.
      if (!claimed) throw new SlotLost();
      return claimed;
    });
  } catch (err) {
    if (err instanceof SlotLost) return null;
    throw err;
  }
}

/** Under a held canary: its kind's pending effects go to staff instead of the provider. */
async function holdPending(gate: CanaryGate, now: Date): Promise<void> {
  await writeTransaction(async () => {
    const held = await holdPendingEffectsOfKind({ kind: gate.kind, now });
    for (const effect of held) {
      const action = await getActionById({ id: effect.actionId });
      await recordAudit({
        at: now,
        tool: effectAuditTool(effect.kind),
        access: "write",
        status: "technical_error",
        errorCode: "canary_held",
        userId: action?.userId ?? null,
        chatId: action?.chatId ?? null,
        actionId: effect.actionId,
        arguments: { effectId: effect.id, kind: effect.kind, attempt: effect.attempts },
        result: {
          outcome: "needs_attention",
          effectId: effect.id,
          status: effect.status,
          attempt: effect.attempts,
          steps: [],
          relay: RELAY_ID,
          canary: {
            provider: gate.provider,
            fingerprint: gate.fingerprint,
            verdict: "held",
            confirmed: gate.confirmed,
            required: gate.required,
            status: gate.status,
          },
        },
      });
    }
  });
}

/** The next pass: at the poll interval, or sooner when a retry falls due before it. */
async function schedule(state: RelayState): Promise<void> {
  if (state.stopped) return;
  const poll = env().EFFECTS_POLL_SECONDS * 1000;
  let delay = poll;
  try {
    // Effects of a gated kind wait for their canary, not for the clock: only its current
    // effect's retry falls due.
    const nexts = await Promise.all([
      nextDueAt({ excludeKinds: lastGates.map((g) => g.kind) }),
      canaryEffectsNextAt({
        ids: lastGates.flatMap((g) => (g.currentEffectId ? [g.currentEffectId] : [])),
      }),
    ]);
    const next = nexts.filter((d) => d !== null).sort((a, b) => a.getTime() - b.getTime())[0];
    if (next) delay = Math.max(0, Math.min(poll, next.getTime() - Date.now()));
  } catch {
    // The database did not answer; poll as usual.
  }
  if (state.stopped) return;
  clearTimeout(state.timer);
  state.timer = setTimeout(() => void pump(state), delay);
  // Never keep the process alive just for the relay.
  state.timer.unref();
}

/** Starts this process's relay (once) and runs a first pass for anything already due. */
export function startRelay(): void {
  if (g.__returnsDeskRelay && !g.__returnsDeskRelay.stopped) return;
  const state: RelayState = { running: false, again: false, stopped: false };
  g.__returnsDeskRelay = state;
  // The pass starts on the next turn of the event loop, not inside the confirm that rang: with
  // SQLite its claim runs synchronously and would otherwise delay the customer's answer by a few
  // milliseconds (npm run bench:effects measured the ledger's confirm 1.1-1.2x the baseline).
  setRelayBell({ ring: () => void setImmediate(() => void pump(state)) });
  void pump(state);
}

/** Stops the relay and waits for a pass in progress to finish (tests, shutdown). */
export async function stopRelay(): Promise<void> {
  const state = g.__returnsDeskRelay;
  if (!state) return;
  state.stopped = true;
  // Stryker disable next-line CallExpression: a timer left to fire runs pump, which returns at once for a stopped relay
  clearTimeout(state.timer);
  // Stryker disable next-line CallExpression: a bell left rung runs pump, which returns at once for a stopped relay
  setRelayBell(null);
  while (state.running) await new Promise((r) => setTimeout(r, 5));
  g.__returnsDeskRelay = undefined;
}
