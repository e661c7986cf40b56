import "server-only";
import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, gt, gte, isNull, lt, max, or, sql } from "drizzle-orm";
import { getDb } from "../index";
import { chats, messages } from "../schema";
import { writeTransaction } from "./tx";

export type ChatRow = typeof chats.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type NewMessage = {
  id: string;
  role: "user" | "assistant";
  parts: unknown[];
  model?: string | null;
  promptVersion?: string | null;
  usage?: unknown;
};

export function createChat({ userId, now = new Date() }: { userId: string; now?: Date }): ChatRow {
  return getDb()
    .insert(chats)
    .values({ id: randomUUID(), userId, createdAt: now, updatedAt: now })
    .returning()
    .get();
}

/** Own chats only, newest first. */
export function listChatsForUser({
  userId,
  limit = 100,
}: {
  userId: string;
  limit?: number;
}): ChatRow[] {
  return getDb()
    .select()
    .from(chats)
    .where(eq(chats.userId, userId))
    .orderBy(desc(chats.createdAt), desc(chats.id))
    .limit(limit)
    .all();
}

/** A chat only if it belongs to this user: anyone else's reads as missing. */
export function getChatForUser({ id, userId }: { id: string; userId: string }): ChatRow | null {
  return (
    getDb()
      .select()
      .from(chats)
      .where(and(eq(chats.id, id), eq(chats.userId, userId)))
      .get() ?? null
  );
}

/** Messages after `afterSeq` (0 = all), oldest first. */
export function listMessages({
  chatId,
  afterSeq = 0,
}: {
  chatId: string;
  afterSeq?: number;
}): MessageRow[] {
  return getDb()
    .select()
    .from(messages)
    .where(and(eq(messages.chatId, chatId), gt(messages.seq, afterSeq)))
    .orderBy(asc(messages.seq))
    .all();
}

export function messageExists({ id }: { id: string }): boolean {
  return (
    getDb().select({ id: messages.id }).from(messages).where(eq(messages.id, id)).get() !==
    undefined
  );
}

/** The newest message the customer wrote in the chat (for replying in their language). */
export function lastUserMessage({ chatId }: { chatId: string }): MessageRow | null {
  return (
    getDb()
      .select()
      .from(messages)
      .where(and(eq(messages.chatId, chatId), eq(messages.role, "user")))
      .orderBy(desc(messages.seq))
      .limit(1)
      .get() ?? null
  );
}

/**
 * Appends messages at the end of the chat in one transaction. seq is UNIQUE per chat, so two
 * writers can never interleave; the chat's title is set from its first user text.
 */
export function appendMessages({
  chatId,
  items,
  title,
  now = new Date(),
}: {
  chatId: string;
  items: NewMessage[];
  title?: string | null;
  now?: Date;
}): void {
  // BEGIN IMMEDIATE: read max(seq) and write under one lock, so another process queues instead
  // of failing the lock upgrade after a completed turn.
  writeTransaction(() => {
    const tx = getDb();
    const last = tx
      .select({ seq: max(messages.seq) })
      .from(messages)
      .where(eq(messages.chatId, chatId))
      .get();
    let seq = last?.seq ?? 0;
    for (const m of items) {
      seq += 1;
      tx.insert(messages)
        .values({
          id: m.id,
          chatId,
          seq,
          role: m.role,
          parts: m.parts,
          model: m.model ?? null,
          promptVersion: m.promptVersion ?? null,
          usage: m.usage ?? null,
          createdAt: now,
        })
        .run();
    }
    tx.update(chats)
      .set({ updatedAt: now, ...(title ? { title: sql`coalesce(${chats.title}, ${title})` } : {}) })
      .where(eq(chats.id, chatId))
      .run();
  });
}

/** Stores the folded summary of messages up to and including `throughSeq`. */
export function saveChatSummary({
  chatId,
  summary,
  throughSeq,
}: {
  chatId: string;
  summary: string;
  throughSeq: number;
}): void {
  getDb()
    .update(chats)
    .set({ summary, summarizedThrough: throughSeq })
    .where(eq(chats.id, chatId))
    .run();
}

/**
 * Takes the chat's turn lease if it is free (or its holder died and the lease ran out), for the
 * holder named by `token`. One conditional UPDATE: the database decides between two simultaneous
 * messages.
 */
export function acquireTurnLock({
  chatId,
  token,
  leaseMs,
  now = new Date(),
}: {
  chatId: string;
  token: string;
  leaseMs: number;
  now?: Date;
}): boolean {
  const r = getDb()
    .update(chats)
    .set({ turnLockedUntil: new Date(now.getTime() + leaseMs), turnLockToken: token })
    .where(
      and(eq(chats.id, chatId), or(isNull(chats.turnLockedUntil), lt(chats.turnLockedUntil, now))),
    )
    .run();
  return r.changes === 1;
}

/**
 * Extends the lease, only for its holder and only while it has not lapsed (a lapsed lease may
 * already belong to another turn). False: this turn no longer holds the chat.
 */
export function renewTurnLock({
  chatId,
  token,
  leaseMs,
  now = new Date(),
}: {
  chatId: string;
  token: string;
  leaseMs: number;
  now?: Date;
}): boolean {
  const r = getDb()
    .update(chats)
    .set({ turnLockedUntil: new Date(now.getTime() + leaseMs) })
    .where(
      and(eq(chats.id, chatId), eq(chats.turnLockToken, token), gte(chats.turnLockedUntil, now)),
    )
    .run();
  return r.changes === 1;
}

/** Frees the lease if `token` still holds it; someone else's lease is left alone. */
export function releaseTurnLock({ chatId, token }: { chatId: string; token: string }): void {
  getDb()
    .update(chats)
    .set({ turnLockedUntil: null, turnLockToken: null })
    .where(and(eq(chats.id, chatId), eq(chats.turnLockToken, token)))
    .run();
}
