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
  if (ids.length === 0) return [];
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
    scope.length > 0 ? or(...scope) : undefined,
    exceptChatId ? ne(pendingActions.chatId, exceptChatId) : undefined,
  ];
  return getDb()
    .select()
    .from(pendingActions)
    .where(and(...conditions))
    .orderBy(asc(pendingActions.createdAt));
}

/** Pending actions whose TTL has passed, oldest first. */
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
    .where(and(eq(pendingActions.status, "pending"), lte(pendingActions.expiresAt, now)))
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
 * The claim of a confirm: pending -> executing only if still pending, owned by this user and not
 * expired. The database decides, so of many concurrent confirms exactly one gets `true`.
 */
export async function claimPendingAction({
  id,
  userId,
  now,
}: {
  id: string;
  userId: string;
  now: Date;
}): Promise<boolean> {
  const res = await getDb()
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
    .returning({ id: pendingActions.id });
  return res.length === 1;
}

/**
 * Moves an action out of `from` into a final state. Conditional, so a transition happens at most
 * once even when a sweep, a confirm and a cancel race: the caller audits only when this is true.
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
}): Promise<boolean> {
  const res = await getDb()
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
    .returning({ id: pendingActions.id });
  return res.length === 1;
}
