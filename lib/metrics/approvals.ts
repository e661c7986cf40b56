/**
 * People in the loop on the metrics page: how often customers edit proposals, and how
 * staff decide the actions that wait for them: approved (executed by an approval, or stale/failed
 * when it then could not run), rejected, expired unseen, still waiting; the approval and
 * rejection rates over the decided ones, and the median time from the customer's confirm to the
 * approval.
 */
import "server-only";
import { countRevisions, listConfirmedForApproval } from "@/db/queries/approval-metrics";

const DAY_MS = 86_400_000;

export type ApprovalsReport = {
  revisions: number;
  awaiting: number;
  approved: number;
  rejected: number;
  expired: number;
  /** Over the decided ones (approved + rejected + expired); null when none was decided. */
  approvalRate: number | null;
  rejectionRate: number | null;
  /** Median milliseconds from the customer's confirm to the staff approval; null without one. */
  timeToApproveMs: number | null;
};

export async function approvalsReport({
  fromDay,
  toDay,
}: {
  fromDay: number;
  toDay: number;
}): Promise<ApprovalsReport> {
  const range = { from: new Date(fromDay * DAY_MS), to: new Date(toDay * DAY_MS) };
  const rows = await listConfirmedForApproval(range);
  // An approval is the staff decision to run it, whatever the run then found (stale, failed).
  const approvedRows = rows.filter((r) => r.approvedBy && r.status !== "rejected");
  const approved = approvedRows.length;
  const rejected = rows.filter((r) => r.status === "rejected").length;
  const expired = rows.filter((r) => r.status === "expired").length;
  const decided = approved + rejected + expired;
  const waits = approvedRows
    .filter((r) => r.decidedAt)
    .map((r) => r.decidedAt!.getTime() - r.confirmedAt.getTime())
    .sort((a, b) => a - b);
  return {
    revisions: await countRevisions(range),
    awaiting: rows.filter((r) => r.status === "awaiting_approval").length,
    approved,
    rejected,
    expired,
    approvalRate: decided === 0 ? null : approved / decided,
    rejectionRate: decided === 0 ? null : rejected / decided,
    timeToApproveMs: waits.length === 0 ? null : median(waits),
  };
}

function median(sorted: number[]): number {
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
