/**
 * Why an action cannot be confirmed or cancelled, as the AppError of api.md. Runs inside the
 * caller's transaction; an action found pending past its TTL is expired here (lazy expiry).
 */
import "server-only";
import { getActionForUser as getActionRowForUser } from "@/db/queries/actions";
import { AppError } from "@/lib/errors";
import { transition } from "./transition";

export function explainUndecidable({
  actionId,
  userId,
  now,
}: {
  actionId: string;
  userId: string;
  now: Date;
}): AppError {
  const row = getActionRowForUser({ id: actionId, userId });
  // Someone else's action answers exactly like a missing one.
  if (!row) return new AppError("not_found", "No such action.");
  let status = row.status;
  if (status === "pending" && row.expiresAt.getTime() <= now.getTime()) {
    transition(row, {
      from: "pending",
      to: "expired",
      now,
      decidedBy: "system",
      onlyIfExpired: true,
    });
    status = "expired";
  }
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
    default:
      return new AppError("already_decided", `This action is already ${status}.`, { details });
  }
}
