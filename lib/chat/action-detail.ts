/**
 * GET /api/actions/{id}: one action as its card shows it, with the state of its external effects
 * (a cancellation's refund: processing, refunded, failed). The owner sees their own; staff see
 * every action; anyone else gets the same 404 as for an unknown id.
 */
import "server-only";
import { getActionById, getActionForUser } from "@/db/queries/actions";
import { type EffectRow, listEffectsForAction } from "@/db/queries/effects";
import { toPendingActionDto } from "@/lib/actions";
import { expireIfDue } from "@/lib/actions/transition";
import type { ActionDetail, EffectView } from "@/lib/api/schemas";
import type { CurrentUser } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { presentAction, storedChatLanguage } from "./present";

export function toEffectView(row: EffectRow): EffectView {
  return {
    id: row.id,
    kind: row.kind as EffectView["kind"],
    status: row.status,
    attempts: row.attempts,
    lastErrorCode: row.lastErrorCode,
    providerRef: row.providerRef,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function actionDetail({
  actionId,
  user,
  now = new Date(),
}: {
  actionId: string;
  user: Pick<CurrentUser, "id" | "role">;
  now?: Date;
}): Promise<ActionDetail> {
  const row =
    user.role === "staff"
      ? await getActionById({ id: actionId })
      : await getActionForUser({ id: actionId, userId: user.id });
  if (!row) throw new AppError("not_found", "No such action.");
  const action = toPendingActionDto(await expireIfDue(row, now));
  const effects = (await listEffectsForAction({ actionId })).map(toEffectView);
  return {
    // The outcome note follows the effects (a refund: processing, refunded, failed).
    ...presentAction(action, await storedChatLanguage(action.chatId), effects),
    effects,
  };
}
