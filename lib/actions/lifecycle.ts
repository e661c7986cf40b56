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
export async function getPendingActionForChat({
  chatId,
  userId,
  now = new Date(),
}: {
  chatId: string;
  userId: string;
  now?: Date;
}): Promise<PendingActionDto | null> {
  for (;;) {
    const row = await getPendingActionRowForChat({ chatId, userId });
    if (!row) return null;
    if ((await expireIfDue(row, now)).status === "pending") return toPendingActionDto(row);
  }
}

/** Any action of this user by id (null for unknown or someone else's), lazily expired. */
export async function getActionForUser({
  actionId,
  userId,
  now = new Date(),
}: {
  actionId: string;
  userId: string;
  now?: Date;
}): Promise<PendingActionDto | null> {
  const row = await getActionRowForUser({ id: actionId, userId });
  return row ? toPendingActionDto(await expireIfDue(row, now)) : null;
}

/** The current state of several actions at once, by id (lazy expiry applied); others' are absent. */
export async function getActionsForUser({
  actionIds,
  userId,
  now = new Date(),
}: {
  actionIds: string[];
  userId: string;
  now?: Date;
}): Promise<Map<string, PendingActionDto>> {
  const rows = await listActionsForUser({ ids: actionIds, userId });
  const out = new Map<string, PendingActionDto>();
  for (const row of rows) out.set(row.id, toPendingActionDto(await expireIfDue(row, now)));
  return out;
}

/** A new chat replaces the proposals of the user's other chats. Returns how many it superseded. */
export async function supersedePendingForUser({
  userId,
  exceptChatId,
  now = new Date(),
}: {
  userId: string;
  exceptChatId: string;
  now?: Date;
}): Promise<number> {
  let n = 0;
  for (const row of await listPendingForUser({ userId, exceptChatId })) {
    if (await transition(row, { from: "pending", to: "superseded", now, decidedBy: "system" })) n++;
  }
  return n;
}

/**
 * A person took over the chat (lib/chat/handoff): its pending proposal is superseded, audited with the
 * given code. Returns how many it superseded.
 */
export async function supersedePendingInChat({
  userId,
  chatId,
  now = new Date(),
  errorCode,
}: {
  userId: string;
  chatId: string;
  now?: Date;
  errorCode: string;
}): Promise<number> {
  let n = 0;
  for (const row of await listPendingForUser({ userId, chatId })) {
    if (row.chatId !== chatId) continue;
    const done = await transition(row, {
      from: "pending",
      to: "superseded",
      now,
      decidedBy: "system",
      errorCode,
    });
    if (done) n++;
  }
  return n;
}

/**
 * A proposal whose turn then failed (the provider broke off after the tool call): the customer
 * never saw its card in a saved message, so it must not stay pending and lock the chat.
 */
export async function withdrawProposal({
  actionId,
  now = new Date(),
}: {
  actionId: string;
  now?: Date;
}): Promise<boolean> {
  const row = await getActionById({ id: actionId });
  if (!row) return false;
  return (
    (await transition(row, {
      from: "pending",
      to: "superseded",
      now,
      decidedBy: "system",
      errorCode: "turn_failed",
    })) !== null
  );
}

/**
 * Told about each action the sweep expired while it waited for staff approval, so the customer
 * hears of it in their chat. The chat layer registers it at start-up (lib/startup.ts): the
 * action core does not depend on the chat.
 */
type ExpiredListener = (action: PendingActionDto) => Promise<void>;
const g = globalThis as unknown as { __returnsDeskApprovalExpired?: ExpiredListener };

export function onApprovalExpired(listener: ExpiredListener): void {
  g.__returnsDeskApprovalExpired = listener;
}

/**
 * The sweep: expires every pending action past its TTL, and every action whose wait for staff
 * approval (APPROVAL_TTL_HOURS) has ended. Returns how many it expired.
 */
export async function expireDueActions(now: Date = new Date()): Promise<number> {
  let n = 0;
  for (;;) {
    const due = await listDuePendingActions({ now, limit: 100 });
    for (const row of due) {
      const expired = await transition(row, {
        from: row.status,
        to: "expired",
        now,
        decidedBy: "system",
        onlyIfExpired: true,
      });
      if (!expired) continue;
      n++;
      if (row.status === "awaiting_approval")
        await g.__returnsDeskApprovalExpired?.(toPendingActionDto(expired));
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
export async function recoverInterruptedActions(now: Date = new Date()): Promise<{
  executed: number;
  failed: number;
}> {
  const counts = { executed: 0, failed: 0 };
  for (const row of await listActionsByStatus({ status: "executing" })) {
    const effect = await writeToolOf(row).findEffect(row.id);
    const done = effect
      ? await transition(row, {
          from: "executing",
          to: "executed",
          now,
          decidedBy: "system",
          result: effect,
        })
      : await transition(row, {
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
