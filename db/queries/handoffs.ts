/**
 * Handoffs (a person taking over a chat): the open one of a chat, the staff queue, and the
 * conditional updates that decide races between a reply and a release. Callers pass the user
 * checks; these only run SQL.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { and, asc, eq, gte, inArray, isNull, lt, ne } from "drizzle-orm";
import { first, getDb } from "../index";
import { chats, handoffs, user } from "../schema";

export type HandoffRow = typeof handoffs.$inferSelect;

const OPEN = ne(handoffs.status, "released");

/**
 * Opens a handoff for the chat unless one is open already (the partial UNIQUE index decides
 * between two requests; ON CONFLICT keeps a PostgreSQL transaction usable). Returns the open row
 * and whether this call created it.
 */
export async function openHandoff({
  chatId,
  userId,
  now,
}: {
  chatId: string;
  userId: string;
  now: Date;
}): Promise<{ row: HandoffRow; created: boolean }> {
  const inserted = await getDb()
    .insert(handoffs)
    .values({ id: randomUUID(), chatId, userId, status: "waiting", requestedAt: now })
    .onConflictDoNothing()
    .returning()
    .then(first);
  if (inserted) return { row: inserted, created: true };
  const open = await getOpenHandoff({ chatId });
  if (!open) throw new Error("a handoff conflicted but none is open");
  return { row: open, created: false };
}

export async function getOpenHandoff({ chatId }: { chatId: string }): Promise<HandoffRow | null> {
  return getDb()
    .select()
    .from(handoffs)
    .where(and(eq(handoffs.chatId, chatId), OPEN))
    .then(first);
}

/**
 * Touches the open row without changing it: on PostgreSQL the UPDATE holds the row's lock until
 * COMMIT, so a customer's message and a release or reply of the same chat take turns.
 */
export async function touchHandoff(row: HandoffRow): Promise<HandoffRow | null> {
  return getDb()
    .update(handoffs)
    .set({ status: row.status })
    .where(and(eq(handoffs.id, row.id), OPEN))
    .returning()
    .then(first);
}

/** A staff reply: the open handoff becomes `active` (its first reply time kept). Null if none. */
export async function markStaffReply({
  chatId,
  staffId,
  now,
}: {
  chatId: string;
  staffId: string;
  now: Date;
}): Promise<HandoffRow | null> {
  const db = getDb();
  const row = await db
    .update(handoffs)
    .set({ status: "active", staffId })
    .where(and(eq(handoffs.chatId, chatId), OPEN))
    .returning()
    .then(first);
  if (!row || row.firstReplyAt) return row;
  // Its own conditional update, so of two first replies at once the one that commits first keeps its time.
  await db
    .update(handoffs)
    .set({ firstReplyAt: now })
    .where(and(eq(handoffs.id, row.id), isNull(handoffs.firstReplyAt)));
  return { ...row, firstReplyAt: row.firstReplyAt ?? now };
}

/** Hands the chat back: only an open handoff, once. Null if none was open. */
export async function closeHandoff({
  chatId,
  staffId,
  now,
}: {
  chatId: string;
  staffId: string;
  now: Date;
}): Promise<HandoffRow | null> {
  return getDb()
    .update(handoffs)
    .set({ status: "released", releasedAt: now, releasedBy: staffId })
    .where(and(eq(handoffs.chatId, chatId), OPEN))
    .returning()
    .then(first);
}

export type HandoffQueueRow = HandoffRow & {
  chatTitle: string | null;
  customerName: string | null;
  customerEmail: string | null;
};

/** Every open handoff, longest waiting first (the staff queue). */
export async function listOpenHandoffs({
  limit = 200,
}: {
  limit?: number;
} = {}): Promise<HandoffQueueRow[]> {
  const rows = await getDb()
    .select({
      h: handoffs,
      chatTitle: chats.title,
      customerName: user.name,
      customerEmail: user.email,
    })
    .from(handoffs)
    .innerJoin(chats, eq(chats.id, handoffs.chatId))
    .leftJoin(user, eq(user.id, handoffs.userId))
    .where(OPEN)
    .orderBy(asc(handoffs.status), asc(handoffs.requestedAt), asc(handoffs.id))
    .limit(limit);
  return rows.map((r) => ({
    ...r.h,
    chatTitle: r.chatTitle,
    customerName: r.customerName,
    customerEmail: r.customerEmail,
  }));
}

/** Names of users by id (the staff member a customer sees on a reply). */
export async function userNames(ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await getDb()
    .select({ id: user.id, name: user.name })
    .from(user)
    .where(inArray(user.id, ids));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Handoffs requested in [from, to): what the metrics page needs for time to first reply. */
export async function handoffsRequestedBetween({
  from,
  to,
}: {
  from: Date;
  to: Date;
}): Promise<Pick<HandoffRow, "requestedAt" | "firstReplyAt">[]> {
  return getDb()
    .select({ requestedAt: handoffs.requestedAt, firstReplyAt: handoffs.firstReplyAt })
    .from(handoffs)
    .where(and(gte(handoffs.requestedAt, from), lt(handoffs.requestedAt, to)))
    .orderBy(asc(handoffs.requestedAt))
    .limit(100_000);
}
