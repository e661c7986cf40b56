import "server-only";
import { clearAllHits, takeSlot } from "@/db/queries/rate-limits";
import { AppError } from "../errors";

/**
 * A sliding window per key, kept in the database (db/queries/rate-limits.ts), so the limit holds
 * across every instance behind a load balancer, not per process.
 */
export async function rateLimit(
  key: string,
  limit: number,
  { windowMs = 60_000, now = Date.now(), what = "messages" } = {},
): Promise<void> {
  const slot = await takeSlot({ key, limit, windowMs, now });
  if (slot.ok) return;
  const retryAfter = Math.max(1, Math.ceil((slot.oldestHit + windowMs - now) / 1000));
  throw new AppError("rate_limited", `Too many ${what}. Try again in ${retryAfter} s.`, {
    details: { retryAfterSeconds: retryAfter },
    headers: { "Retry-After": String(retryAfter) },
  });
}

/** Tests and the eval: every limit starts empty again. */
export async function resetRateLimits(): Promise<void> {
  await clearAllHits();
}
