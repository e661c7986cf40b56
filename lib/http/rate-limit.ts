import "server-only";
import { AppError } from "../errors";

/**
 * A fixed-size sliding window per key, in memory. Enough for one server process (the embedded
 * default); several instances would move this to the shared database.
 */
const windows = new Map<string, number[]>();

export function rateLimit(key: string, limit: number, windowMs = 60_000, now = Date.now()): void {
  const hits = (windows.get(key) ?? []).filter((t) => now - t < windowMs);
  if (hits.length >= limit) {
    const retryAfter = Math.max(1, Math.ceil((hits[0]! + windowMs - now) / 1000));
    windows.set(key, hits);
    throw new AppError("rate_limited", `Too many messages. Try again in ${retryAfter} s.`, {
      details: { retryAfterSeconds: retryAfter },
      headers: { "Retry-After": String(retryAfter) },
    });
  }
  hits.push(now);
  windows.set(key, hits);
  if (windows.size > SWEEP_ABOVE) sweep(now, windowMs);
}

/** Keys of users who went quiet are dropped, so the map does not grow with every user ever seen. */
const SWEEP_ABOVE = 10_000;
function sweep(now: number, windowMs: number): void {
  for (const [key, hits] of windows)
    if (hits.every((t) => now - t >= windowMs)) windows.delete(key);
}

export function resetRateLimits(): void {
  windows.clear();
}
