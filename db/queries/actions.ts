import "server-only";
import { and, asc, desc, eq, gt, inArray, lte, ne, or, type SQL } from "drizzle-orm";
import { first, getDb, one } from "../index";
import { type ActionStatus, chats, pendingActions } from "../schema";

export type ActionRow = typeof pendingActions.$inferSelect;
export type NewActionRow = typeof pendingActions.$inferInsert;

export async function insertPendingAction(row: NewActionRow): Promise<ActionRow> {
  return one(await getDb().insert(pendingActions).values(row).returning());
}

export async function getActionById({ id }: { id: string }): Promise<ActionRow | null> {
  return getDb().select().from(pendingActions).where(eq(pendingActions.id, id)).then(first);
}

/** Another user's action reads exactly like a missing one. */
export async function getActionForUser({
  id,
  userId,
}: {
  id: string;
  userId: string;
}): Promise<ActionRow | null> {
  return getDb()
    .select()
    .from(pendingActions)
    .where(and(eq(pendingActions.id, id), eq(pendingActions.userId, userId)))
    .then(first);
}

/** Several of the user's actions in one query (the cards of one chat). */
export async function listActionsForUser({
  ids,
  userId,
}: {
  ids: string[];
  userId: string;
}): Promise<ActionRow[]> {
  return getDb()
    .select()
    .from(pendingActions)
    .where(and(inArray(pendingActions.id, ids), eq(pendingActions.userId, userId)));
}

export async function chatBelongsToUser({
  chatId,
  userId,
}: {
  chatId: string;
  userId: string;
}): Promise<boolean> {
  const row = await getDb()
    .select({ id: chats.id })
    .from(chats)
    .where(and(eq(chats.id, chatId), eq(chats.userId, userId)))
    .then(first);
  return row !== null;
}

/** The newest pending action of a chat (there is at most one by construction). */
export async function getPendingActionRowForChat({
  chatId,
  userId,
}: {
  chatId: string;
  userId: string;
}): Promise<ActionRow | null> {
  return getDb()
    .select()
    .from(pendingActions)
    .where(
      and(
        eq(pendingActions.chatId, chatId),
        eq(pendingActions.userId, userId),
        eq(pendingActions.status, "pending"),
      ),
    )
    .orderBy(desc(pendingActions.createdAt))
    .then(first);
}

/**
 * Pending actions a new proposal or a new chat replaces: the user's pending actions in `chatId`
 * or on `targetId` (either criterion optional), minus those in `exceptChatId`.
 */
export async function listPendingForUser({
  userId,
  chatId,
  targetId,
  exceptChatId,
}: {
  userId: string;
  chatId?: string;
  targetId?: string;
  exceptChatId?: string;
}): Promise<ActionRow[]> {
  const scope: SQL[] = [];
  if (chatId) scope.push(eq(pendingActions.chatId, chatId));
  if (targetId) scope.push(eq(pendingActions.targetId, targetId));
  const conditions: (SQL | undefined)[] = [
    eq(pendingActions.userId, userId),
    eq(pendingActions.status, "pending"),
    // No chat and no target: or() of nothing is no condition.
    or(...scope),
    exceptChatId ? ne(pendingActions.chatId, exceptChatId) : undefined,
  ];
  return getDb()
    .select()
    .from(pendingActions)
    .where(and(...conditions))
    .orderBy(asc(pendingActions.createdAt));
}

/** Pending and awaiting-approval actions whose TTL has passed, oldest first. */
export async function listDuePendingActions({
  now,
  limit,
}: {
  now: Date;
  limit: number;
}): Promise<ActionRow[]> {
  return getDb()
    .select()
    .from(pendingActions)
    .where(
      and(
        inArray(pendingActions.status, ["pending", "awaiting_approval"]),
        lte(pendingActions.expiresAt, now),
      ),
    )
    .orderBy(asc(pendingActions.expiresAt))
    .limit(limit);
}

export async function listActionsByStatus({
  status,
}: {
  status: ActionStatus;
}): Promise<ActionRow[]> {
  return getDb().select().from(pendingActions).where(eq(pendingActions.status, status));
}

/**
 * The claim of a confirm or an approval: `from` (pending for the customer's confirm,
 * awaiting_approval for staff's approval) -> executing, only if still in `from`, owned by `userId`
 * when given, and not expired. The database decides, so of many concurrent claims exactly one
 * gets `true`.
 */
export async function claimPendingAction({
  id,
  userId,
  now,
  from = "pending",
}: {
  id: string;
  /** The owner; omitted only for staff approving an action that awaits them. */
  userId?: string;
  now: Date;
  from?: "pending" | "awaiting_approval";
}): Promise<boolean> {
  const res = await getDb()
    .update(pendingActions)
    .set({ status: "executing" })
    .where(
      and(
        eq(pendingActions.id, id),
        userId === undefined ? undefined : eq(pendingActions.userId, userId),
        eq(pendingActions.status, from),
        gt(pendingActions.expiresAt, now),
      ),
    )
    .returning({ id: pendingActions.id });
  return res.length === 1;
}

/**
 * Moves an action out of `from` into its next state. Conditional, so a transition happens at most
 * once even when a sweep, a confirm, an approval and a cancel race: the caller audits only when
 * this is true.
 */
export async function transitionAction({
  id,
  from,
  to,
  decidedAt,
  decidedBy,
  result,
  errorCode,
  expiredBy,
  liveAt,
  set,
}: {
  id: string;
  from: ActionStatus | ActionStatus[];
  to: ActionStatus;
  /** Null for a step that decides nothing yet (the customer's confirm of an awaited action). */
  decidedAt: Date | null;
  decidedBy: string | null;
  result?: unknown;
  errorCode?: string | null;
  /** Only if the TTL has passed at this time (lazy expiry must not expire a live action). */
  expiredBy?: Date;
  /** Only if the TTL has not passed at this time (a confirm must not revive an expired one). */
  liveAt?: Date;
  /** The approval fields this step records (lib/actions/transition.ts). */
  set?: Partial<Pick<ActionRow, "expiresAt" | "confirmedAt" | "approvedBy" | "rejectReason">>;
}): Promise<boolean> {
  const res = await getDb()
    .update(pendingActions)
    .set({ status: to, decidedAt, decidedBy, result, errorCode: errorCode ?? null, ...set })
    .where(
      and(
        eq(pendingActions.id, id),
        Array.isArray(from)
          ? inArray(pendingActions.status, from)
          : eq(pendingActions.status, from),
        expiredBy ? lte(pendingActions.expiresAt, expiredBy) : undefined,
        liveAt ? gt(pendingActions.expiresAt, liveAt) : undefined,
      ),
    )
    .returning({ id: pendingActions.id });
  return res.length === 1;
}

/** Actions waiting for staff approval, oldest confirm first (the staff queue). */
export async function listAwaitingApproval({ limit }: { limit: number }): Promise<ActionRow[]> {
  return getDb()
    .select()
    .from(pendingActions)
    .where(eq(pendingActions.status, "awaiting_approval"))
    .orderBy(asc(pendingActions.confirmedAt), asc(pendingActions.id))
    .limit(limit);
}
