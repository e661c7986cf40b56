/**
 * Why an action cannot be confirmed or cancelled, as the AppError of docs/api.md. Runs inside the
 * caller's transaction; an action found pending past its TTL is expired here (lazy expiry).
 */
import "server-only";
import { getActionForUser as getActionRowForUser } from "@/db/queries/actions";
import { AppError } from "@/lib/errors";
import { expireIfDue } from "./transition";

export async function explainUndecidable({
  actionId,
  userId,
  now,
}: {
  actionId: string;
  userId: string;
  now: Date;
}): Promise<AppError> {
  const row = await getActionRowForUser({ id: actionId, userId });
  // Someone else's action answers exactly like a missing one.
  if (!row) return new AppError("not_found", "No such action.");
  const { status } = await expireIfDue(row, now);
  const details = { status };
  switch (status) {
    case "expired":
      return new AppError("expired", "This proposal has expired; ask again to get a new one.", {
        details,
      });
    case "stale":
      return new AppError("stale", "The order changed since this was proposed; ask again.", {
        details,
      });
    case "superseded":
      return new AppError("superseded", "A newer proposal replaced this one.", { details });
    case "awaiting_approval":
      return new AppError("already_decided", "This action is waiting for our team's approval.", {
        details,
      });
    case "executed":
    case "cancelled":
    case "failed":
    case "rejected":
      return new AppError("already_decided", `This action is already ${status}.`, { details });
    default:
      // Still pending or executing here means the claim lost to something we cannot name;
      // never tell the customer "already decided: pending".
      return new AppError("internal_error", "The action could not be decided. Please try again.");
  }
}
