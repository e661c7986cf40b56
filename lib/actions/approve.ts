/**
 * Staff decisions on actions that wait for approval (four eyes). Approve runs the
 * confirm's own path (decideAndRun): the stored arguments only, the payload hash, the tool's
 * compare-and-set, one claim the database decides, so racing approvals on any number of
 * instances execute once and a target that moved ends `stale`. Reject is one conditional
 * transition, as a cancel is. The staff member is recorded on the action and its audit event.
 */
import "server-only";
import { getActionById, listAwaitingApproval } from "@/db/queries/actions";
import { writeTransaction } from "@/db/queries/tx";
import { AppError } from "@/lib/errors";
import { type ConfirmResult, decideAndRun } from "./confirm";
import { type PendingActionDto, toPendingActionDto } from "./dto";
import { expireIfDue, transition } from "./transition";

/** Why staff cannot decide this action (now); runs inside the caller's transaction. */
async function explainUnapprovable({
  actionId,
  now,
}: {
  actionId: string;
  now: Date;
}): Promise<AppError> {
  const row = await getActionById({ id: actionId });
  if (!row) return new AppError("not_found", "No such action.");
  const { status } = await expireIfDue(row, now);
  const details = { status };
  switch (status) {
    case "expired":
      return new AppError("expired", "The approval period of this action has ended.", { details });
    case "stale":
      return new AppError("stale", "The order changed since this was proposed.", { details });
    case "pending":
      return new AppError("conflict", "The customer has not confirmed this action yet.", {
        details,
      });
    case "awaiting_approval":
    case "executing":
      // Lost a claim to something we cannot name: never say "already decided: awaiting".
      return new AppError("internal_error", "The action could not be decided. Please try again.");
    default:
      return new AppError("already_decided", `This action is already ${status}.`, { details });
  }
}

export async function approveAction({
  actionId,
  staffId,
  now,
}: {
  actionId: string;
  staffId: string;
  /** Tests only; by default the time is taken inside the write transaction. */
  now?: Date;
}): Promise<ConfirmResult> {
  return await decideAndRun({
    actionId,
    decider: { kind: "staff", staffId },
    explain: explainUnapprovable,
    now,
  });
}

export async function rejectAction({
  actionId,
  staffId,
  reason,
  now = new Date(),
}: {
  actionId: string;
  staffId: string;
  reason: string;
  now?: Date;
}): Promise<{ action: PendingActionDto }> {
  const outcome = await writeTransaction(async (): Promise<PendingActionDto | AppError> => {
    const row = await getActionById({ id: actionId });
    const rejected =
      row &&
      (await transition(row, {
        from: "awaiting_approval",
        to: "rejected",
        now,
        decidedBy: staffId,
        approvedBy: staffId,
        rejectReason: reason,
        errorCode: "rejected_by_staff",
        onlyIfLive: true,
      }));
    return rejected ? toPendingActionDto(rejected) : await explainUnapprovable({ actionId, now });
  });
  if (outcome instanceof AppError) throw outcome;
  return { action: outcome };
}

/** The queue: actions that wait for staff, oldest confirm first, lazily expired on the way. */
export async function listApprovals({
  now = new Date(),
  limit = 100,
}: {
  now?: Date;
  limit?: number;
} = {}): Promise<{ action: PendingActionDto; userId: string; confirmedAt: Date }[]> {
  const out = [];
  for (const row of await listAwaitingApproval({ limit })) {
    const current = await expireIfDue(row, now);
    if (current.status !== "awaiting_approval") continue;
    out.push({
      action: toPendingActionDto(current),
      userId: current.userId,
      confirmedAt: current.confirmedAt ?? current.createdAt,
    });
  }
  return out;
}
