/**
 * The relay's wait before a retry: half to all of base × 2^(attempt − 1), capped, with the
 * jitter's two ends pinned (random() at 0 and just under 1). A wrong wait is not a wrong refund,
 * but it is how a provider that is down gets hammered, or a retry waits a day.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { backoffMs } from "@/lib/effects/relay";

const low = () => 0;
const high = () => 1 - Number.EPSILON;

describe("the relay's backoff", () => {
  it("doubles from the base per attempt, half to all of it", () => {
    expect([1, 2, 3, 4].map((a) => backoffMs(a, 100, 1_000_000, low))).toEqual([50, 100, 200, 400]);
    expect([1, 2, 3, 4].map((a) => backoffMs(a, 100, 1_000_000, high))).toEqual([
      100, 200, 400, 800,
    ]);
    expect(backoffMs(3, 100, 1_000_000, () => 0.5)).toBe(300);
  });

  it("the first attempt (and a nonsense zeroth) waits about the base", () => {
    expect(backoffMs(0, 100, 1_000_000, high)).toBe(100);
    expect(backoffMs(-5, 100, 1_000_000, low)).toBe(50);
  });

  it("never waits past the cap, however many attempts", () => {
    expect(backoffMs(8, 100, 5_000, high)).toBe(5_000);
    expect(backoffMs(8, 100, 5_000, low)).toBe(2_500);
    // 2^1000 would be Infinity: the exponent stops at 30, so the cap still applies.
    expect(backoffMs(1_000, 1, 60_000, high)).toBe(60_000);
    expect(backoffMs(40, 1, Number.MAX_SAFE_INTEGER, high)).toBe(2 ** 30);
  });

  it("for any attempt, base, cap and draw: never above the cap, at least half the first wait, never shorter for a later attempt", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -3, max: 60 }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, base, cap, r) => {
          const wait = backoffMs(attempt, base, cap, () => r);
          expect(wait).toBeLessThanOrEqual(cap);
          expect(wait).toBeGreaterThanOrEqual(Math.floor(Math.min(base, cap) / 2));
          expect(backoffMs(attempt + 1, base, cap, () => r)).toBeGreaterThanOrEqual(wait);
        },
      ),
    );
  });
});
