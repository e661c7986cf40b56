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
  durationMs?: number;
};

/** Applies the transition if the row is still in `from`; returns the updated row, or null. */
export async function transition(row: ActionRow, t: Transition): Promise<ActionRow | null> {
  return await writeTransaction(async () => {
    const changed = await transitionAction({
      id: row.id,
      from: t.from,
      to: t.to,
      // An expired action was decided by the clock at its deadline, whenever we notice it.
      decidedAt: t.to === "expired" ? row.expiresAt : t.now,
      decidedBy: t.decidedBy,
      result: t.result,
      errorCode: t.errorCode,
      expiredBy: t.onlyIfExpired ? t.now : undefined,
    });
    if (!changed) return null;
    await recordAudit({
      at: t.now,
      tool: row.tool,
      access: "write",
      status: AUDIT_FOR[t.to],
      userId: row.userId,
      chatId: row.chatId,
      actionId: row.id,
      toolCallId: row.toolCallId,
      // As in the source course, a customer's cancel is audited with the code user_cancelled.
      errorCode: t.errorCode ?? (t.to === "cancelled" ? "user_cancelled" : null),
      durationMs: t.durationMs,
      arguments: row.arguments,
      // Every event has a result; a decision that executed nothing says so.
      result: t.result ?? { written: false, status: t.to },
      promptVersion: row.promptVersion,
      model: row.model,
    });
    return await getActionById({ id: row.id });
  });
}

/**
 * Lazy expiry: a pending action past its TTL is expired (and audited) the moment anyone looks
 * at it. Returns the row as it now stands.
 */
export async function expireIfDue(row: ActionRow, now: Date): Promise<ActionRow> {
  if (row.status !== "pending" || row.expiresAt.getTime() > now.getTime()) return row;
  await transition(row, {
    from: "pending",
    to: "expired",
    now,
    decidedBy: "system",
    onlyIfExpired: true,
  });
  return (await getActionById({ id: row.id })) ?? row;
}
