/** Cancel: pending -> cancelled. Nothing runs; the decision is audited. */
import "server-only";
import { getActionForUser as getActionRowForUser } from "@/db/queries/actions";
import { writeTransaction } from "@/db/queries/tx";
import { AppError } from "@/lib/errors";
import { type PendingActionDto, toPendingActionDto } from "./dto";
import { explainUndecidable } from "./refusals";
import { transition } from "./transition";

export function cancelAction({
  actionId,
  userId,
  now = new Date(),
}: {
  actionId: string;
  userId: string;
  now?: Date;
}): { action: PendingActionDto } {
  const outcome = writeTransaction((): PendingActionDto | AppError => {
    const row = getActionRowForUser({ id: actionId, userId });
    const live = row && row.status === "pending" && row.expiresAt.getTime() > now.getTime();
    const cancelled = live
      ? transition(row, { from: "pending", to: "cancelled", now, decidedBy: userId })
      : null;
    return cancelled
      ? toPendingActionDto(cancelled)
      : explainUndecidable({ actionId, userId, now });
  });
  if (outcome instanceof AppError) throw outcome;
  return { action: outcome };
}
