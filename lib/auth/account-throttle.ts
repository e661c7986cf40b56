/**
 * Failed sign-ins per account (issue 10, finding 1): after AUTH_ACCOUNT_MAX_FAILURES wrong
 * passwords for one email within AUTH_ACCOUNT_FAILURE_WINDOW_SECONDS, every sign-in for that
 * email gets 429 with Retry-After until the oldest failure leaves the window, whatever address
 * it comes from; a successful sign-in clears the count. A locked attempt is refused before
 * better-auth runs, so it costs no password hash either.
 *
 * The trade-off: anyone who knows a customer's email can keep that customer from signing in
 * (not from using a session they already have) by spending a few wrong passwords per window.
 * Defaults, 5 per 15 minutes: a customer who mistypes gets five tries and waits at most a
 * quarter of an hour; a guesser gets at most 480 guesses a day per account, hopeless against
 * any password not on a short list, whatever number of addresses they rotate through.
 *
 * Kept in the database (db/queries/rate-limits.ts, key "signin:<email>"), so the count holds
 * across every instance.
 */
import "server-only";
import { addHit, clearAllHits, clearHits, takeSlot } from "@/db/queries/rate-limits";
import { env } from "../env";
import { AppError } from "../errors";

const keyOf = (email: string) => `signin:${normalizeEmail(email)}`;
const windowMs = () => env().AUTH_ACCOUNT_FAILURE_WINDOW_SECONDS * 1000;

/** One account, however its email is written: case, surrounding space, Unicode forms. */
export function normalizeEmail(email: string): string {
  return email.normalize("NFKC").trim().toLowerCase();
}

/** Throws 429 `rate_limited` with Retry-After while the account has too many recent failures. */
export async function assertSignInAllowed(email: string, now = Date.now()): Promise<void> {
  const slot = await takeSlot({
    key: keyOf(email),
    limit: env().AUTH_ACCOUNT_MAX_FAILURES,
    windowMs: windowMs(),
    now,
    record: false,
  });
  if (slot.ok) return;
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

/** Counts a wrong password (401) or clears the count after a successful sign-in (200). */
export async function noteSignInResult(email: string, status: number, now = Date.now()) {
  if (status === 200) await clearHits({ key: keyOf(email) });
  else if (status === 401) await addHit({ key: keyOf(email), windowMs: windowMs(), now });
}

/** Tests: every account starts with no failures. */
export async function resetAccountThrottle(): Promise<void> {
  await clearAllHits();
}
