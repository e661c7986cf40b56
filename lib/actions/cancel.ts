/** Cancel: pending -> cancelled. Nothing runs; the decision is audited. */
import "server-only";
import { getActionForUser as getActionRowForUser } from "@/db/queries/actions";
import { writeTransaction } from "@/db/queries/tx";
import { AppError } from "@/lib/errors";
import { type PendingActionDto, toPendingActionDto } from "./dto";
import { explainUndecidable } from "./refusals";
import { transition } from "./transition";

export async function cancelAction({
  actionId,
  userId,
  now = new Date(),
}: {
  actionId: string;
  userId: string;
  now?: Date;
}): Promise<{ action: PendingActionDto }> {
  const outcome = await writeTransaction(async (): Promise<PendingActionDto | AppError> => {
    const row = await getActionRowForUser({ id: actionId, userId });
    const live = row && row.status === "pending" && row.expiresAt.getTime() > now.getTime();
    const cancelled = live
      ? await transition(row, { from: "pending", to: "cancelled", now, decidedBy: userId })
      : null;
    return cancelled
      ? toPendingActionDto(cancelled)
      : await explainUndecidable({ actionId, userId, now });
  });
  if (outcome instanceof AppError) throw outcome;
  return { action: outcome };
}
