/**
 * The audit status of a customer's own decision, for the confirm and cancel responses (the
 * source course's console prints "Статус аудита" after each decision). Only the status and
 * time are shared: the event id and its stored details stay on the staff side.
 */
import "server-only";
import { listAuditEventsForAction } from "@/db/queries/audit";
import type { DecisionAudit } from "@/lib/api/schemas";

/** The newest event of this action: the one its decision just wrote (null if none, e.g. a test store). */
export async function decisionAudit({
  actionId,
}: {
  actionId: string;
}): Promise<DecisionAudit | null> {
  const last = (await listAuditEventsForAction({ actionId })).at(-1);
  return last ? { status: last.status, at: last.at.toISOString() } : null;
}
