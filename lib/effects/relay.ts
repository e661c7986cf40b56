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
 */
import "server-only";
import { randomUUID } from "node:crypto";
import os from "node:os";
import type { z } from "zod";
import { getActionById } from "@/db/queries/actions";
import {
  claimDueEffects,
  type EffectOutcomeSet,
  type EffectRow,
  nextDueAt,
  recordEffectOutcome,
} from "@/db/queries/effects";
import { writeTransaction } from "@/db/queries/tx";
import type { AuditStatus } from "@/db/schema";
import { recordAudit } from "@/lib/audit-log/record";
import { env } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { store } from "@/lib/store";
import { EFFECT_PAYLOADS, type EffectKind, effectAuditTool } from "./kinds";
import { mailAfterRefund } from "./mail/compose";
import { renderMail } from "./mail/render";
import { mailTransport } from "./mail/transport";
import { enqueueFollowUps, idempotencyKey } from "./outbox";
import { paymentsProvider, warehouseHook } from "./providers";
import type { EffectRef, LookupOutcome, SendOutcome } from "./providers/types";
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
    case "warehouse.address_changed": {
      const hook = warehouseHook();
      const parse = (p: unknown) => EFFECT_PAYLOADS["warehouse.address_changed"].parse(p);
      // Configured at the confirm, removed since: nothing to send to, for good.
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
  const ref: EffectRef = {
    effectId: effect.id,
    actionId: effect.actionId,
    operationId: effect.actionId,
    idempotencyKey: effect.idempotencyKey,
  };
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

/** One attempt at one claimed effect: the provider call(s), then the record and its audit. */
async function attempt(effect: EffectRow, owner: string): Promise<AttemptOutcome | null> {
  const started = performance.now();
  const d = await decide(effect, () => new Date());
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
    const action = await getActionById({ id: effect.actionId });
    // A refund that ended tells the customer, in this same transaction: the mail exists if and
    // only if the outcome was recorded (one per action and kind, whoever records it).
    const followUps =
      effect.kind === "payment.refund" && (row.status === "succeeded" || row.status === "failed")
        ? await mailAfterRefund({ effect: row, action, outcome: row.status })
        : [];
    const enqueued = await enqueueFollowUps({
      actionId: effect.actionId,
      effects: followUps,
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
  const claimed = await claimDueEffects({
    now,
    owner,
    leaseUntil: new Date(now.getTime() + env().EFFECTS_LEASE_SECONDS * 1000),
    limit,
  });
  await Promise.all(
    claimed.map(async (effect) => {
      try {
        await attempt(effect, owner);
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

/** The next pass: at the poll interval, or sooner when a retry falls due before it. */
async function schedule(state: RelayState): Promise<void> {
  if (state.stopped) return;
  const poll = env().EFFECTS_POLL_SECONDS * 1000;
  let delay = poll;
  try {
    const next = await nextDueAt();
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
  clearTimeout(state.timer);
  setRelayBell(null);
  while (state.running) await new Promise((r) => setTimeout(r, 5));
  g.__returnsDeskRelay = undefined;
}
