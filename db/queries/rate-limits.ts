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
}: {
  key: string;
  limit: number;
  windowMs: number;
  now: number;
}): Promise<SlotAnswer> {
  key = storableKey(key);
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

/**
 * Takes back one hit recorded at `at` (a counted sign-in attempt that checked no password). The
 * no-op update locks the key's row on PostgreSQL for the read-modify-write, as takeSlot's upsert.
 */
export async function releaseHit({ key, at }: { key: string; at: number }): Promise<void> {
  key = storableKey(key);
  await writeTransaction(async () => {
    const [row] = await getDb()
      .update(rateWindows)
      .set({ key })
      .where(eq(rateWindows.key, key))
      .returning();
    const hits = row?.hits ?? [];
    const i = hits.indexOf(at);
    if (i < 0) return;
    hits.splice(i, 1);
    await getDb().update(rateWindows).set({ hits }).where(eq(rateWindows.key, key));
  });
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
