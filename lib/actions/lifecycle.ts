/**
 * Reading actions (with lazy expiry), superseding on a new chat, the periodic expiry sweep and
 * start-up recovery.
 */
import "server-only";
import {
  getActionById,
  getActionForUser as getActionRowForUser,
  getPendingActionRowForChat,
  listActionsByStatus,
  listActionsForUser,
  listDuePendingActions,
  listPendingForUser,
} from "@/db/queries/actions";
import { type PendingActionDto, toPendingActionDto, writeToolOf } from "./dto";
import { expireIfDue, transition } from "./transition";

/** The chat's live pending action, or null. Past-TTL ones are expired on the way. */
export function getPendingActionForChat({
  chatId,
  userId,
  now = new Date(),
}: {
  chatId: string;
  userId: string;
  now?: Date;
}): PendingActionDto | null {
  for (;;) {
    const row = getPendingActionRowForChat({ chatId, userId });
    if (!row) return null;
    if (expireIfDue(row, now).status === "pending") return toPendingActionDto(row);
  }
}

/** Any action of this user by id (null for unknown or someone else's), lazily expired. */
export function getActionForUser({
  actionId,
  userId,
  now = new Date(),
}: {
  actionId: string;
  userId: string;
  now?: Date;
}): PendingActionDto | null {
  const row = getActionRowForUser({ id: actionId, userId });
  return row ? toPendingActionDto(expireIfDue(row, now)) : null;
}

/** The current state of several actions at once, by id (lazy expiry applied); others' are absent. */
export function getActionsForUser({
  actionIds,
  userId,
  now = new Date(),
}: {
  actionIds: string[];
  userId: string;
  now?: Date;
}): Map<string, PendingActionDto> {
  const rows = listActionsForUser({ ids: actionIds, userId });
  return new Map(rows.map((row) => [row.id, toPendingActionDto(expireIfDue(row, now))]));
}

/** A new chat replaces the proposals of the user's other chats. Returns how many it superseded. */
export function supersedePendingForUser({
  userId,
  exceptChatId,
  now = new Date(),
}: {
  userId: string;
  exceptChatId: string;
  now?: Date;
}): number {
  let n = 0;
  for (const row of listPendingForUser({ userId, exceptChatId })) {
    if (transition(row, { from: "pending", to: "superseded", now, decidedBy: "system" })) n++;
  }
  return n;
}

/**
 * A proposal whose turn then failed (the provider broke off after the tool call): the customer
 * never saw its card in a saved message, so it must not stay pending and lock the chat.
 */
export function withdrawProposal({
  actionId,
  now = new Date(),
}: {
  actionId: string;
  now?: Date;
}): boolean {
  const row = getActionById({ id: actionId });
  if (!row) return false;
  return (
    transition(row, {
      from: "pending",
      to: "superseded",
      now,
      decidedBy: "system",
      errorCode: "turn_failed",
    }) !== null
  );
}

/** The sweep: expires every pending action past its TTL. Returns how many it expired. */
export function expireDueActions(now: Date = new Date()): number {
  let n = 0;
  for (;;) {
    const due = listDuePendingActions({ now, limit: 100 });
    for (const row of due) {
      if (
        transition(row, {
          from: "pending",
          to: "expired",
          now,
          decidedBy: "system",
          onlyIfExpired: true,
        })
      )
        n++;
    }
    if (due.length < 100) return n;
  }
}

/**
 * Start-up recovery. Confirm claims and writes in one transaction, so a crash rolls both back and
 * leaves the action `pending` (it can still be confirmed, or it expires). A row can only be seen
 * `executing` if a process wrote it outside that transaction (an older version, a manual edit).
 * The effect and its operation id commit together, so the tool's findEffect() tells the truth:
 * if it finds the effect the action executed, otherwise nothing happened and it is `failed`.
 */
export function recoverInterruptedActions(now: Date = new Date()): {
  executed: number;
  failed: number;
} {
  const counts = { executed: 0, failed: 0 };
  for (const row of listActionsByStatus({ status: "executing" })) {
    const effect = writeToolOf(row).findEffect(row.id);
    const done = effect
      ? transition(row, {
          from: "executing",
          to: "executed",
          now,
          decidedBy: "system",
          result: effect,
        })
      : transition(row, {
          from: "executing",
          to: "failed",
          now,
          decidedBy: "system",
          errorCode: "interrupted",
        });
    if (done) counts[effect ? "executed" : "failed"]++;
  }
  return counts;
}
