/**
 * Sign-in attempts per account: at most
 * AUTH_ACCOUNT_MAX_FAILURES password attempts for one email are in play within
 * AUTH_ACCOUNT_FAILURE_WINDOW_SECONDS, whatever address they come from; beyond that every sign-in
 * for that email gets 429 with Retry-After until the oldest one leaves the window. A successful
 * sign-in clears the count.
 *
 * An attempt is counted *before* its password is hashed, in one atomic step with the check
 * (takeSlot: a conditional write under the key's row lock), so parallel guesses cannot all pass
 * a check that none of them has counted yet: of 12 wrong passwords sent at once, 5 are tried.
 * An attempt that turns out not to be a wrong password (better-auth refused it for another
 * reason: a malformed body, the address limiter) gives its slot back.
 *
 * The trade-off: anyone who knows a customer's email can keep that customer from signing in
 * (not from using a session they already have) by spending a few wrong passwords per window.
 * Defaults, 5 per 15 minutes: a customer who mistypes gets five tries and waits at most a
 * quarter of an hour; a guesser gets at most 480 guesses a day per account, hopeless against
 * any password not on a short list, whatever number of addresses they rotate through.
 *
 * Kept in the database (db/queries/rate-limits.ts) under "signin:" and the SHA-256 of the
 * normalised email: a fixed 71 characters whatever the client typed, and no email in the table.
 */
import "server-only";
import { createHash } from "node:crypto";
import { clearAllHits, clearHits, releaseHit, takeSlot } from "@/db/queries/rate-limits";
import { env } from "../env";
import { AppError } from "../errors";

const keyOf = (email: string) =>
  `signin:${createHash("sha256").update(normalizeEmail(email)).digest("hex")}`;
const windowMs = () => env().AUTH_ACCOUNT_FAILURE_WINDOW_SECONDS * 1000;

/** One account, however its email is written: case, surrounding space, Unicode forms. */
export function normalizeEmail(email: string): string {
  return email.normalize("NFKC").trim().toLowerCase();
}

/** A counted attempt, to be settled once better-auth has answered. */
export type SignInAttempt = { key: string; at: number };

/**
 * Counts one attempt for the account, or throws 429 `rate_limited` with Retry-After when the
 * account already has its allowance of attempts in the window.
 */
export async function beginSignInAttempt(email: string, now = Date.now()): Promise<SignInAttempt> {
  const key = keyOf(email);
  const slot = await takeSlot({
    key,
    limit: env().AUTH_ACCOUNT_MAX_FAILURES,
    windowMs: windowMs(),
    now,
  });
  if (slot.ok) return { key, at: now };
  const retryAfter = Math.max(1, Math.ceil((slot.oldestHit + windowMs() - now) / 1000));
  throw new AppError(
    "rate_limited",
    `Too many failed sign-ins for this account. Try again in ${retryAfter} s.`,
    {
      details: { retryAfterSeconds: retryAfter },
      headers: { "Retry-After": String(retryAfter) },
    },
  );
}

/**
 * A success (200) clears the account's count; a wrong password (401) stays counted; anything
 * else (no password was checked) gives the attempt's slot back.
 */
export async function settleSignInAttempt(attempt: SignInAttempt, status: number): Promise<void> {
  if (status === 200) await clearHits({ key: attempt.key });
  else if (status !== 401) await releaseHit(attempt);
}

/** Tests: every account starts with no failures. */
export async function resetAccountThrottle(): Promise<void> {
  await clearAllHits();
}
