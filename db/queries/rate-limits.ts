/**
 * Sliding-window limits kept in the database (table rate_windows), so every instance counts the
 * same hits: the chat's messages per user, failed sign-ins per account. One row per key holds the
 * times of the hits still inside the window.
 */
import "server-only";
import { eq, lt } from "drizzle-orm";
import { getDb, one } from "../index";
import { rateWindows } from "../schema";
import { writeTransaction } from "./tx";

export type SlotAnswer = { ok: true } | { ok: false; oldestHit: number };

/**
 * Keys are outside text (an email as it was typed) and PostgreSQL text cannot hold NUL: a key
 * with one would fail the query (a 500) where SQLite simply counts it. U+FFFD stands in for NUL,
 * on both databases alike.
 */
const storableKey = (key: string): string => key.replaceAll("\u0000", "\uFFFD");

/**
 * Takes one hit for `key` unless `limit` hits already fall inside the window ending at `now`.
 * The upsert that starts the transaction locks the key's row on PostgreSQL (and SQLite's write
 * transaction holds the whole file), so two instances counting the same key at once queue
 * instead of both seeing room for one more.
 */
export async function takeSlot({
  key,
  limit,
  windowMs,
  now,
  record = true,
}: {
  key: string;
  limit: number;
  windowMs: number;
  now: number;
  /** False: only check (the per-account sign-in gate counts failures later). */
  record?: boolean;
}): Promise<SlotAnswer> {
  key = storableKey(key);
  if (!record) {
    // Only a check: read, write nothing.
    const found = await getDb().select().from(rateWindows).where(eq(rateWindows.key, key));
    const hits = (found[0]?.hits ?? []).filter((t) => now - t < windowMs);
    return hits.length >= limit ? { ok: false, oldestHit: hits[0]! } : { ok: true };
  }
  return writeTransaction(async () => {
    const row = one(
      await getDb()
        .insert(rateWindows)
        .values({ key, hits: [], until: new Date(now) })
        .onConflictDoUpdate({ target: rateWindows.key, set: { key } })
        .returning(),
    );
    const hits = (row.hits ?? []).filter((t) => now - t < windowMs);
    const full = hits.length >= limit;
    if (!full) hits.push(now);
    await getDb()
      .update(rateWindows)
      .set({ hits, until: new Date((hits.at(-1) ?? now) + windowMs) })
      .where(eq(rateWindows.key, key));
    return full ? { ok: false, oldestHit: hits[0]! } : { ok: true };
  });
}

/** Records one hit for `key` without a limit (a failed sign-in). */
export async function addHit({
  key,
  windowMs,
  now,
}: {
  key: string;
  windowMs: number;
  now: number;
}) {
  await takeSlot({ key, limit: Number.MAX_SAFE_INTEGER, windowMs, now });
}

/** Forgets every hit of `key` (a successful sign-in clears the account's failures). */
export async function clearHits({ key }: { key: string }): Promise<void> {
  await getDb()
    .delete(rateWindows)
    .where(eq(rateWindows.key, storableKey(key)));
}

/** Deletes rows whose every hit has left its window (the periodic sweep). */
export async function deleteIdleWindows({ now }: { now: Date }): Promise<void> {
  await getDb().delete(rateWindows).where(lt(rateWindows.until, now));
}

/** Tests only: forgets every limit. */
export async function clearAllHits(): Promise<void> {
  await getDb().delete(rateWindows);
}
