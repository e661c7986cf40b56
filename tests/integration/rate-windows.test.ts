/**
 * The sliding windows every limit counts in (table rate_windows), at the query level: a refused
 * hit is not counted, the window slides, a row is swept only once its last hit has left the
 * window, a hit is given back only if it was taken, and a key with NUL is the same key as with
 * U+FFFD on both databases. The limits built on them are in auth-rate-limit and
 * decision-rate-limits.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { clearHits, deleteIdleWindows, releaseHit, takeSlot } from "@/db/queries/rate-limits";
import { rateWindows } from "@/db/schema";
import { useTestDatabase } from "../helpers/db";

const WINDOW = 100;
const take = (key: string, now: number, limit = 2) =>
  takeSlot({ key, limit, windowMs: WINDOW, now });
const row = async (key: string) =>
  (await getDb().select().from(rateWindows)).find((r) => r.key === key);

describe("rate windows", () => {
  beforeAll(async () => {
    await useTestDatabase();
  });

  it("a refused hit is not counted: the window frees up as the taken ones leave it", async () => {
    const key = "slide";
    expect(await take(key, 0)).toEqual({ ok: true });
    expect(await take(key, 10)).toEqual({ ok: true });
    expect(await take(key, 20)).toEqual({ ok: false, oldestHit: 0 });
    expect(await take(key, 99)).toEqual({ ok: false, oldestHit: 0 });
    // The hit at 0 has left (100 - 0 is not < 100); the refused ones were never counted.
    expect(await take(key, 100)).toEqual({ ok: true });
    expect((await row(key))?.hits).toEqual([10, 100]);
  });

  it("a row is swept only after its last hit has left the window", async () => {
    const key = "sweep";
    await take(key, 1_000);
    await take(key, 1_050);
    expect((await row(key))?.until.getTime()).toBe(1_050 + WINDOW);
    await deleteIdleWindows({ now: new Date(1_050 + WINDOW - 1) });
    expect(await row(key)).toBeDefined();
    await deleteIdleWindows({ now: new Date(1_050 + WINDOW + 1) });
    expect(await row(key)).toBeUndefined();
    // A refused hit does not extend it either.
    const full = "sweep-full";
    await take(full, 2_000, 1);
    expect(await take(full, 2_060, 1)).toEqual({ ok: false, oldestHit: 2_000 });
    expect((await row(full))?.until.getTime()).toBe(2_000 + WINDOW);
  });

  it("gives back only a hit it took: the oldest, a later one, none for an unknown time or key", async () => {
    const key = "release";
    for (const t of [0, 10, 20]) await take(key, t, 5);
    await releaseHit({ key, at: 0 });
    expect((await row(key))?.hits).toEqual([10, 20]);
    await releaseHit({ key, at: 15 });
    expect((await row(key))?.hits).toEqual([10, 20]);
    await releaseHit({ key, at: 20 });
    expect((await row(key))?.hits).toEqual([10]);
    await expect(releaseHit({ key: "never-seen", at: 1 })).resolves.toBeUndefined();
    expect(await row("never-seen")).toBeUndefined();
  });

  it("a key with NUL counts as the same key with U+FFFD, and can be cleared", async () => {
    expect(await take("a\u0000b", 0, 1)).toEqual({ ok: true });
    expect(await take("a\uFFFDb", 1, 1)).toEqual({ ok: false, oldestHit: 0 });
    expect(await take("ab", 2, 1)).toEqual({ ok: true });
    await clearHits({ key: "a\u0000b" });
    expect(await take("a\uFFFDb", 3, 1)).toEqual({ ok: true });
  });
});
