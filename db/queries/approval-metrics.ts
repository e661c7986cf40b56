/** The people-in-the-loop metrics: customers' revisions and staff approvals in a time range. */
import "server-only";
import { and, count, gte, isNotNull, lt } from "drizzle-orm";
import { getDb } from "../index";
import { type ActionStatus, pendingActions } from "../schema";

export type Range = { from: Date; to: Date };

/** Revisions (the customer's edits) stored in the range. */
export async function countRevisions({ from, to }: Range): Promise<number> {
  const [row] = await getDb()
    .select({ n: count() })
    .from(pendingActions)
    .where(
      and(
        isNotNull(pendingActions.revisionOf),
        gte(pendingActions.createdAt, from),
        lt(pendingActions.createdAt, to),
      ),
    );
  return Number(row?.n ?? 0);
}

/**
 * Every action the customer confirmed into `awaiting_approval` in the range, with where it ended
 * and when (its status and decidedAt), for the rates and the time to approve.
 */
export async function listConfirmedForApproval({
  from,
  to,
}: Range): Promise<
  { status: ActionStatus; confirmedAt: Date; decidedAt: Date | null; approvedBy: string | null }[]
> {
  const rows = await getDb()
    .select({
      status: pendingActions.status,
      confirmedAt: pendingActions.confirmedAt,
      decidedAt: pendingActions.decidedAt,
      approvedBy: pendingActions.approvedBy,
    })
    .from(pendingActions)
    .where(and(gte(pendingActions.confirmedAt, from), lt(pendingActions.confirmedAt, to)))
    .limit(100_000);
  return rows.map((r) => ({ ...r, confirmedAt: r.confirmedAt! }));
}
