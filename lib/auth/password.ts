import "server-only";
import os from "node:os";
import { hashPassword, verifyPassword } from "better-auth/crypto";
import pLimit, { type LimitFunction } from "p-limit";

/**
 * better-auth's own password hashing (node:crypto scrypt, N=16384 r=16 p=1, "salt:key" in hex),
 * with a bound on how many hashes run at once. Each scrypt holds 32 MiB of native memory
 * (128 · N · r bytes) for as long as it runs, on libuv's pool (4 threads): 32 customers signing in
 * together kept 4 × 32 MiB in use, a third of the server's peak memory (docs/benchmarks.md).
 * More hashes at once than there are cores do not finish any sooner: they share the same cores.
 * So at most one hash per core (never more than the pool's 4 threads) runs; the others wait in
 * line, holding no memory. The format and the parameters are better-auth's, unchanged: existing
 * hashes verify, and a new hash is what better-auth itself would have written
 * (tests/integration/password-hash.test.ts).
 */
export const PASSWORD_HASH_CONCURRENCY = Math.max(1, Math.min(os.availableParallelism(), 4));

// One line for the whole process: the bundler may load this module once per route group, and
// a second limiter would let a second set of hashes run.
const g = globalThis as unknown as { __returnsDeskPasswordLimit?: LimitFunction };
function limit(): LimitFunction {
  g.__returnsDeskPasswordLimit ??= pLimit(PASSWORD_HASH_CONCURRENCY);
  return g.__returnsDeskPasswordLimit;
}

/** For better-auth's `emailAndPassword.password`. */
export const password = {
  hash: (plain: string): Promise<string> => limit()(() => hashPassword(plain)),
  verify: (data: { hash: string; password: string }): Promise<boolean> =>
    limit()(() => verifyPassword(data)),
};
