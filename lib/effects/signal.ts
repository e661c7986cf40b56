/**
 * The relay's doorbell: a confirm that stored effects rings it once its transaction has
 * committed, so the happy path waits for no poll. One per process (on globalThis, like the
 * database connection: Next.js may load this module once per route bundle).
 */
type Bell = { ring: () => void };
const g = globalThis as unknown as { __returnsDeskRelayBell?: Bell };

/** Wakes this process's relay, if one runs (tests without a relay: nothing happens). */
export function wakeRelay(): void {
  g.__returnsDeskRelayBell?.ring();
}

/** The relay installs its wake-up here; null removes it. */
export function setRelayBell(bell: Bell | null): void {
  g.__returnsDeskRelayBell = bell ?? undefined;
}
