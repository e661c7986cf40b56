/**
 * Every state change of a pending action goes through here: a conditional UPDATE (the database
 * decides who wins a race) and, only if it changed the row, exactly one audit event, both in
 * one transaction.
 */
import "server-only";
import { type ActionRow, getActionById, transitionAction } from "@/db/queries/actions";
import { writeTransaction } from "@/db/queries/tx";
import type { ActionStatus, AuditStatus } from "@/db/schema";
import { recordAudit } from "@/lib/audit-log/record";

const AUDIT_FOR: Record<Exclude<ActionStatus, "pending" | "executing">, AuditStatus> = {
  executed: "success",
  failed: "technical_error",
  cancelled: "cancelled",
  expired: "expired",
  superseded: "superseded",
  stale: "stale",
  // The customer's confirm of an action above the approval threshold: nothing ran yet.
  awaiting_approval: "awaiting_approval",
  rejected: "approval_rejected",
};

export type Transition = {
  from: ActionStatus | ActionStatus[];
  to: keyof typeof AUDIT_FOR;
  now: Date;
  /** "system" for sweeps, supersede and recovery; the user id for the customer's own decisions. */
  decidedBy: string;
  result?: unknown;
  errorCode?: string | null;
  /** Expiry only: apply only if the TTL has passed at `now`. */
  onlyIfExpired?: boolean;
  /** Confirm: apply only if the TTL has not passed at `now`. */
  onlyIfLive?: boolean;
  durationMs?: number;
  /** To awaiting_approval: when the wait for staff ends (APPROVAL_TTL_HOURS from now). */
  approvalExpiresAt?: Date;
  /** A staff decision (approve, reject): recorded on the action and on its audit event. */
  approvedBy?: string;
  rejectReason?: string;
};

/** Applies the transition if the row is still in `from`; returns the updated row, or null. */
export async function transition(row: ActionRow, t: Transition): Promise<ActionRow | null> {
  return await writeTransaction(async () => {
    // Entering awaiting_approval decides nothing yet: the customer confirmed, staff decide.
    const waiting = t.to === "awaiting_approval";
    const changed = await transitionAction({
      id: row.id,
      from: t.from,
      to: t.to,
      // An expired action was decided by the clock at its deadline, whenever we notice it.
      decidedAt: waiting ? null : t.to === "expired" ? row.expiresAt : t.now,
      decidedBy: waiting ? null : t.decidedBy,
      result: t.result,
      errorCode: t.errorCode,
      expiredBy: t.onlyIfExpired ? t.now : undefined,
      liveAt: t.onlyIfLive ? t.now : undefined,
      set: {
        ...(waiting ? { confirmedAt: t.now, expiresAt: t.approvalExpiresAt } : {}),
        ...(t.approvedBy ? { approvedBy: t.approvedBy } : {}),
        ...(t.rejectReason ? { rejectReason: t.rejectReason } : {}),
      },
    });
    if (!changed) return null;
    await recordAudit({
      at: t.now,
      tool: row.tool,
      access: "write",
      status: AUDIT_FOR[t.to],
      userId: row.userId,
      // The approver (or rejecter) when staff decided; the customer and the system need none.
      actorId: t.approvedBy ?? null,
      chatId: row.chatId,
      actionId: row.id,
      toolCallId: row.toolCallId,
      // As in the source course, a customer's cancel is audited with the code user_cancelled.
      errorCode: t.errorCode ?? (t.to === "cancelled" ? "user_cancelled" : null),
      durationMs: t.durationMs,
      arguments: row.arguments,
      // Every event has a result; a decision that executed nothing says so.
      result:
        t.result ??
        (t.rejectReason
          ? { written: false, status: t.to, reason: t.rejectReason }
          : { written: false, status: t.to }),
      promptVersion: row.promptVersion,
      model: row.model,
    });
    return await getActionById({ id: row.id });
  });
}

/**
 * Lazy expiry: a pending action (or one awaiting approval) past its TTL is expired (and audited)
 * the moment anyone looks at it. Returns the row as it now stands.
 */
export async function expireIfDue(row: ActionRow, now: Date): Promise<ActionRow> {
  if (!isWaiting(row.status) || row.expiresAt.getTime() > now.getTime()) return row;
  await transition(row, {
    from: row.status,
    to: "expired",
    now,
    decidedBy: "system",
    onlyIfExpired: true,
  });
  return (await getActionById({ id: row.id })) ?? row;
}

/** The states a clock ends: waiting for the customer, or (after their confirm) for staff. */
export function isWaiting(status: ActionStatus): status is "pending" | "awaiting_approval" {
  return status === "pending" || status === "awaiting_approval";
}
