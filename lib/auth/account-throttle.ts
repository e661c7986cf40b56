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
 * In memory, per process, like the per-user chat limit (lib/http/rate-limit.ts); several
 * instances would keep it in the shared database.
 */
import "server-only";
import { env } from "../env";
import { AppError } from "../errors";

const failures = new Map<string, number[]>();

/** One account, however its email is written: case, surrounding space, Unicode forms. */
export function normalizeEmail(email: string): string {
  return email.normalize("NFKC").trim().toLowerCase();
}

function recent(key: string, now: number): number[] {
  const windowMs = env().AUTH_ACCOUNT_FAILURE_WINDOW_SECONDS * 1000;
  const kept = (failures.get(key) ?? []).filter((t) => now - t < windowMs);
  if (kept.length) failures.set(key, kept);
  else failures.delete(key);
  return kept;
}

/** Throws 429 `rate_limited` with Retry-After while the account has too many recent failures. */
export function assertSignInAllowed(email: string, now = Date.now()): void {
  const hits = recent(normalizeEmail(email), now);
  if (hits.length < env().AUTH_ACCOUNT_MAX_FAILURES) return;
  const windowMs = env().AUTH_ACCOUNT_FAILURE_WINDOW_SECONDS * 1000;
  const retryAfter = Math.max(1, Math.ceil((hits[0]! + windowMs - now) / 1000));
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
export function noteSignInResult(email: string, status: number, now = Date.now()): void {
  const key = normalizeEmail(email);
  if (status === 200) {
    failures.delete(key);
    return;
  }
  if (status !== 401) return;
  const hits = recent(key, now);
  hits.push(now);
  failures.set(key, hits);
  if (failures.size > SWEEP_ABOVE) for (const k of [...failures.keys()]) recent(k, now);
}

/** Accounts nobody tried lately are dropped, so the map does not grow with every email seen. */
const SWEEP_ABOVE = 10_000;

export function resetAccountThrottle(): void {
  failures.clear();
}
