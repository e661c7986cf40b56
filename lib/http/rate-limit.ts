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

/**
 * Staff decisions (approve, reject, receive, retry, resolve, release) share one budget per staff
 * member: a script or a stolen session cannot sweep the queues, while a person clearing a backlog
 * by hand stays far below it.
 */
export const STAFF_DECISIONS_PER_MINUTE = 60;

export function limitStaffDecisions(staffId: string): Promise<void> {
  return rateLimit(`staff-decision:${staffId}`, STAFF_DECISIONS_PER_MINUTE, {
    what: "staff decisions",
  });
}

/**
 * A customer's edits of proposals: each one plans again and writes an action, an audit event and
 * a transcript message, so they are counted per customer whether or not the edit is valid.
 */
export const REVISIONS_PER_MINUTE = 10;

export function limitRevisions(userId: string): Promise<void> {
  return rateLimit(`revise:${userId}`, REVISIONS_PER_MINUTE, { what: "edits" });
}
