/**
 * The staff work queue (/audit/queue, /api/staff/effects): effects the relay is done with that
 * need a person, `failed` (the provider refused) and `needs_attention` (the outcome stayed
 * unknown). Staff either send one back to the relay (retry: `pending`, a fresh attempt and time
 * budget, the same idempotency key, and the next attempt looks the effect up before it sends), or
 * settle it by hand with a note (`resolved`; the customer's card then says our team settled it).
 * Each is one conditional update plus one audit event of the action, in one transaction.
 */
import "server-only";
import {
  type EffectCanaryRow,
  listEffectCanaries,
  restartCanaryWith,
} from "@/db/queries/effect-canaries";
import {
  type EffectRow,
  getEffect,
  getQueueRow,
  listEffectsByStatus,
  type QueueRow,
  resolveEffect,
  retryEffect,
} from "@/db/queries/effects";
import { writeTransaction } from "@/db/queries/tx";
import type { EffectStatus } from "@/db/schema";
import type { EffectCanary, StaffEffect } from "@/lib/api/schemas";
import { recordAudit } from "@/lib/audit-log/record";
import { wakeRelay } from "@/lib/effects/signal";
import { AppError } from "@/lib/errors";

export const RETRY_EFFECT = "staff:retry_effect";
export const RESOLVE_EFFECT = "staff:resolve_effect";

/** At most this many rows per listing: the queue is a work list, not an archive. */
export const QUEUE_LIMIT = 200;

export function toStaffEffect(
  e: EffectRow & Partial<Pick<QueueRow, "customerId" | "customerEmail" | "chatId" | "tool">>,
): StaffEffect {
  return {
    id: e.id,
    actionId: e.actionId,
    kind: e.kind as StaffEffect["kind"],
    status: e.status,
    attempts: e.attempts,
    lastErrorCode: e.lastErrorCode,
    providerRef: e.providerRef,
    tool: e.tool ?? null,
    customer: e.customerId ? { id: e.customerId, email: e.customerEmail ?? null } : null,
    chatId: e.chatId ?? null,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
    settledAt: e.settledAt?.toISOString() ?? null,
    resolutionNote: e.resolutionNote,
    resolvedBy: e.resolvedBy,
  };
}

export async function listQueue({
  statuses,
}: {
  statuses: EffectStatus[];
}): Promise<StaffEffect[]> {
  return (await listEffectsByStatus({ statuses, limit: QUEUE_LIMIT })).map(toStaffEffect);
}

/** How many integration canaries the queue shows (the newest). */
export const CANARY_LIMIT = 20;

function toEffectCanary(c: EffectCanaryRow): EffectCanary {
  return {
    kind: c.kind as EffectCanary["kind"],
    provider: c.provider,
    fingerprint: c.fingerprint,
    status: c.status,
    required: c.required,
    confirmed: c.confirmed,
    currentEffectId: c.currentEffectId,
    failedEffectId: c.failedEffectId,
    lastErrorCode: c.lastErrorCode,
    startedAt: c.startedAt.toISOString(),
    settledAt: c.settledAt?.toISOString() ?? null,
  };
}

/** The integration canaries, newest first: the queue shows them above its effects. */
export async function listCanaries(): Promise<EffectCanary[]> {
  return (await listEffectCanaries({ limit: CANARY_LIMIT })).map(toEffectCanary);
}

async function queueRowOf(id: string): Promise<StaffEffect> {
  const row = await getQueueRow({ id });
  if (!row) throw new AppError("not_found", "No such effect.");
  return toStaffEffect(row);
}

async function staffChange({
  id,
  staffId,
  tool,
  change,
  refusal,
  args,
}: {
  id: string;
  staffId: string;
  tool: string;
  change: (now: Date) => Promise<EffectRow | null>;
  refusal: string;
  args: Record<string, unknown>;
}): Promise<StaffEffect> {
  const now = new Date();
  const done = await writeTransaction(async () => {
    const before = await getEffect({ id });
    if (!before) return undefined;
    const row = await change(now);
    await recordAudit({
      at: now,
      tool,
      access: "write",
      status: row ? "success" : "business_error",
      errorCode: row ? null : "wrong_status",
      userId: staffId,
      actionId: before.actionId,
      arguments: { effectId: id, kind: before.kind, ...args },
      result: { effectId: id, from: before.status, status: row?.status ?? before.status },
    });
    return row;
  });
  if (done === undefined) throw new AppError("not_found", "No such effect.");
  if (!done) throw new AppError("conflict", refusal);
  return queueRowOf(id);
}

/**
 * Back to the relay: pending, a fresh attempt budget, the same key. 409 unless failed or
 * needs_attention and still as `seen` (its updatedAt then): a retry claims the failure it was
 * asked for, once.
 */
export async function retryQueuedEffect({
  id,
  staffId,
  seen,
}: {
  id: string;
  staffId: string;
  seen: Date;
}) {
  const effect = await staffChange({
    id,
    staffId,
    tool: RETRY_EFFECT,
    change: async (now) => {
      const row = await retryEffect({ id, now, seen });
      // The effect that held its integration canary: the canary runs again, with this effect
      // released first (its attempt looks it up before sending anything).
      if (row) await restartCanaryWith({ effectId: id, now });
      return row;
    },
    refusal:
      "Only a failed or needs_attention effect can be retried, and only as you saw it: it has changed since.",
    args: { seen: seen.toISOString() },
  });
  wakeRelay();
  return { effect };
}

/** Settled by hand, with a note. 409 unless failed/needs_attention (a second resolve is 409). */
export async function resolveQueuedEffect({
  id,
  staffId,
  note,
}: {
  id: string;
  staffId: string;
  note: string;
}) {
  const effect = await staffChange({
    id,
    staffId,
    tool: RESOLVE_EFFECT,
    change: (now) => resolveEffect({ id, now, note, staffId }),
    refusal: "Only a failed or needs_attention effect can be resolved; this one is not.",
    args: { note },
  });
  return { effect };
}
