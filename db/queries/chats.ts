import "server-only";
import { randomUUID } from "node:crypto";
import { and, asc, count, desc, eq, gt, gte, isNull, lt, max, or, sql } from "drizzle-orm";
import { first, getDb, one } from "../index";
import { chats, messages } from "../schema";
import { writeTransaction } from "./tx";

export type ChatRow = typeof chats.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type NewMessage = {
  id: string;
  role: "user" | "assistant" | "staff";
  parts: unknown[];
  model?: string | null;
  promptVersion?: string | null;
  usage?: unknown;
};

export async function createChat({
  userId,
  embedOrigin = null,
  now = new Date(),
}: {
  userId: string;
  embedOrigin?: string | null;
  now?: Date;
}): Promise<ChatRow> {
  return one(
    await getDb()
      .insert(chats)
      .values({ id: randomUUID(), userId, embedOrigin, createdAt: now, updatedAt: now })
      .returning(),
  );
}

/** Own chats only, newest first. */
export async function listChatsForUser({
  userId,
  limit = 100,
}: {
  userId: string;
  limit?: number;
}): Promise<ChatRow[]> {
  return getDb()
    .select()
    .from(chats)
    .where(eq(chats.userId, userId))
    .orderBy(desc(chats.createdAt), desc(chats.id))
    .limit(limit);
}

/** A chat only if it belongs to this user: anyone else's reads as missing. */
export async function getChatForUser({
  id,
  userId,
}: {
  id: string;
  userId: string;
}): Promise<ChatRow | null> {
  return getDb()
    .select()
    .from(chats)
    .where(and(eq(chats.id, id), eq(chats.userId, userId)))
    .then(first);
}

/** Messages after `afterSeq` (0 = all), oldest first. */
export async function listMessages({
  chatId,
  afterSeq = 0,
}: {
  chatId: string;
  afterSeq?: number;
}): Promise<MessageRow[]> {
  return getDb()
    .select()
    .from(messages)
    .where(and(eq(messages.chatId, chatId), gt(messages.seq, afterSeq)))
    .orderBy(asc(messages.seq));
}

/** How many messages come after `afterSeq`: the fold's trigger, without reading them. */
export async function countMessages({
  chatId,
  afterSeq = 0,
}: {
  chatId: string;
  afterSeq?: number;
}): Promise<number> {
  const row = await getDb()
    .select({ n: count() })
    .from(messages)
    .where(and(eq(messages.chatId, chatId), gt(messages.seq, afterSeq)))
    .then(first);
  // Stryker disable next-line OptionalChaining: an aggregate without GROUP BY always answers one row
  return Number(row?.n ?? 0);
}

export async function messageExists({ id }: { id: string }): Promise<boolean> {
  const row = await getDb()
    .select({ id: messages.id })
    .from(messages)
    .where(eq(messages.id, id))
    .then(first);
  return row !== null;
}

/** The newest message the customer wrote in the chat (for replying in their language). */
export async function lastUserMessage({ chatId }: { chatId: string }): Promise<MessageRow | null> {
  return getDb()
    .select()
    .from(messages)
    .where(and(eq(messages.chatId, chatId), eq(messages.role, "user")))
    .orderBy(desc(messages.seq))
    .limit(1)
    .then(first);
}

/**
 * Appends messages at the end of the chat in one transaction. seq is UNIQUE per chat, so two
 * writers can never interleave; the chat's title is set from its first user text.
 */
export async function appendMessages({
  chatId,
  items,
  title,
  now = new Date(),
}: {
  chatId: string;
  items: NewMessage[];
  title?: string | null;
  now?: Date;
}): Promise<void> {
  // BEGIN IMMEDIATE: read max(seq) and write under one lock, so another process queues instead
  // of failing the lock upgrade after a completed turn.
  await writeTransaction(async () => {
    const tx = getDb();
    // The chat's row first: on PostgreSQL this UPDATE locks it until COMMIT, so two writers of
    // one chat (a staff reply and the customer's message in a handoff) take turns here instead of
    // both reading the same max(seq) and one failing on the UNIQUE (chat_id, seq).
    await tx
      .update(chats)
      .set({ updatedAt: now, ...(title ? { title: sql`coalesce(${chats.title}, ${title})` } : {}) })
      .where(eq(chats.id, chatId));
    const last = await tx
      .select({ seq: max(messages.seq) })
      .from(messages)
      .where(eq(messages.chatId, chatId))
      .then(first);
    // Stryker disable next-line OptionalChaining: an aggregate without GROUP BY always answers one row
    let seq = last?.seq ?? 0;
    for (const m of items) {
      seq += 1;
      await tx.insert(messages).values({
        id: m.id,
        chatId,
        seq,
        role: m.role,
        parts: m.parts,
        model: m.model ?? null,
        promptVersion: m.promptVersion ?? null,
        usage: m.usage ?? null,
        createdAt: now,
      });
    }
  });
}

/** Stores the folded summary of messages up to and including `throughSeq`. */
export async function saveChatSummary({
  chatId,
  summary,
  throughSeq,
}: {
  chatId: string;
  summary: string;
  throughSeq: number;
}): Promise<void> {
  await getDb()
    .update(chats)
    .set({ summary, summarizedThrough: throughSeq })
    .where(eq(chats.id, chatId));
}

/**
 * Takes the chat's turn lease if it is free (or its holder died and the lease ran out), for the
 * holder named by `token`. One conditional UPDATE: the database decides between two simultaneous
 * messages.
 */
export async function acquireTurnLock({
  chatId,
  token,
  leaseMs,
  now = new Date(),
}: {
  chatId: string;
  token: string;
  leaseMs: number;
  now?: Date;
}): Promise<boolean> {
  const r = await getDb()
    .update(chats)
    .set({ turnLockedUntil: new Date(now.getTime() + leaseMs), turnLockToken: token })
    .where(
      and(eq(chats.id, chatId), or(isNull(chats.turnLockedUntil), lt(chats.turnLockedUntil, now))),
    )
    .returning({ id: chats.id });
  return r.length === 1;
}

/**
 * Frees the lease if `token` still holds it (not lapsed: a lapsed lease may already belong to
 * another turn, and an unclaimed one is free anyway). True if it did: the turn still held the
 * chat. Someone else's lease is left alone.
 */
export async function releaseTurnLock({
  chatId,
  token,
  now = new Date(),
}: {
  chatId: string;
  token: string;
  now?: Date;
}): Promise<boolean> {
  const r = await getDb()
    .update(chats)
    .set({ turnLockedUntil: null, turnLockToken: null })
    .where(
      and(eq(chats.id, chatId), eq(chats.turnLockToken, token), gte(chats.turnLockedUntil, now)),
    )
    .returning({ id: chats.id });
  return r.length === 1;
}
