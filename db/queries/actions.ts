import "server-only";
import { and, asc, desc, eq, gt, inArray, lte, ne, or, type SQL } from "drizzle-orm";
import { getDb } from "../index";
import { type ActionStatus, chats, pendingActions } from "../schema";

export type ActionRow = typeof pendingActions.$inferSelect;
export type NewActionRow = typeof pendingActions.$inferInsert;

export function insertPendingAction(row: NewActionRow): ActionRow {
  return getDb().insert(pendingActions).values(row).returning().get();
}

export function getActionById({ id }: { id: string }): ActionRow | null {
  return getDb().select().from(pendingActions).where(eq(pendingActions.id, id)).get() ?? null;
}

/** Another user's action reads exactly like a missing one. */
export function getActionForUser({ id, userId }: { id: string; userId: string }): ActionRow | null {
  return (
    getDb()
      .select()
      .from(pendingActions)
      .where(and(eq(pendingActions.id, id), eq(pendingActions.userId, userId)))
      .get() ?? null
  );
}

/** Several of the user's actions in one query (the cards of one chat). */
export function listActionsForUser({
  ids,
  userId,
}: {
  ids: string[];
  userId: string;
}): ActionRow[] {
  if (ids.length === 0) return [];
  return getDb()
    .select()
    .from(pendingActions)
    .where(and(inArray(pendingActions.id, ids), eq(pendingActions.userId, userId)))
    .all();
}

export function chatBelongsToUser({ chatId, userId }: { chatId: string; userId: string }): boolean {
  const row = getDb()
    .select({ id: chats.id })
    .from(chats)
    .where(and(eq(chats.id, chatId), eq(chats.userId, userId)))
    .get();
  return row !== undefined;
}

/** The newest pending action of a chat (there is at most one by construction). */
export function getPendingActionRowForChat({
  chatId,
  userId,
}: {
  chatId: string;
  userId: string;
}): ActionRow | null {
  return (
    getDb()
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
      .get() ?? null
  );
}

/**
 * Pending actions a new proposal or a new chat replaces: the user's pending actions in `chatId`
 * or on `targetId` (either criterion optional), minus those in `exceptChatId`.
 */
export function listPendingForUser({
  userId,
  chatId,
  targetId,
  exceptChatId,
}: {
  userId: string;
  chatId?: string;
  targetId?: string;
  exceptChatId?: string;
}): ActionRow[] {
  const scope: SQL[] = [];
  if (chatId) scope.push(eq(pendingActions.chatId, chatId));
  if (targetId) scope.push(eq(pendingActions.targetId, targetId));
  const conditions: (SQL | undefined)[] = [
    eq(pendingActions.userId, userId),
    eq(pendingActions.status, "pending"),
    scope.length > 0 ? or(...scope) : undefined,
    exceptChatId ? ne(pendingActions.chatId, exceptChatId) : undefined,
  ];
  return getDb()
    .select()
    .from(pendingActions)
    .where(and(...conditions))
    .orderBy(asc(pendingActions.createdAt))
    .all();
}

/** Pending actions whose TTL has passed, oldest first. */
export function listDuePendingActions({ now, limit }: { now: Date; limit: number }): ActionRow[] {
  return getDb()
    .select()
    .from(pendingActions)
    .where(and(eq(pendingActions.status, "pending"), lte(pendingActions.expiresAt, now)))
    .orderBy(asc(pendingActions.expiresAt))
    .limit(limit)
    .all();
}

export function listActionsByStatus({ status }: { status: ActionStatus }): ActionRow[] {
  return getDb().select().from(pendingActions).where(eq(pendingActions.status, status)).all();
}

/**
 * The claim of a confirm: pending -> executing only if still pending, owned by this user and not
 * expired. The database decides, so of many concurrent confirms exactly one gets `true`.
 */
export function claimPendingAction({
  id,
  userId,
  now,
}: {
  id: string;
  userId: string;
  now: Date;
}): boolean {
  const res = getDb()
    .update(pendingActions)
    .set({ status: "executing" })
    .where(
      and(
        eq(pendingActions.id, id),
        eq(pendingActions.userId, userId),
        eq(pendingActions.status, "pending"),
        gt(pendingActions.expiresAt, now),
      ),
    )
    .run();
  return res.changes === 1;
}

/**
 * Moves an action out of `from` into a final state. Conditional, so a transition happens at most
 * once even when a sweep, a confirm and a cancel race: the caller audits only when this is true.
 */
export function transitionAction({
  id,
  from,
  to,
  decidedAt,
  decidedBy,
  result,
  errorCode,
  expiredBy,
}: {
  id: string;
  from: ActionStatus | ActionStatus[];
  to: ActionStatus;
  decidedAt: Date;
  decidedBy: string;
  result?: unknown;
  errorCode?: string | null;
  /** Only if the TTL has passed at this time (lazy expiry must not expire a live action). */
  expiredBy?: Date;
}): boolean {
  const res = getDb()
    .update(pendingActions)
    .set({ status: to, decidedAt, decidedBy, result, errorCode: errorCode ?? null })
    .where(
      and(
        eq(pendingActions.id, id),
        Array.isArray(from)
          ? inArray(pendingActions.status, from)
          : eq(pendingActions.status, from),
        expiredBy ? lte(pendingActions.expiresAt, expiredBy) : undefined,
      ),
    )
    .run();
  return res.changes === 1;
}
