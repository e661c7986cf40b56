/**
 * lib/auth/password.ts lets at most PASSWORD_HASH_CONCURRENCY scrypt hashes run at once (each
 * holds 32 MiB while it runs); the others wait and then all finish. better-auth's hasher is
 * replaced by one that counts how many are inside it at the same time.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";

const inside = vi.hoisted(() => ({ now: 0, most: 0 }));

vi.mock("better-auth/crypto", () => {
  /** Stays "running" until the event loop has turned, so callers can pile up meanwhile. */
  const run = async <T>(value: T): Promise<T> => {
    inside.now++;
    inside.most = Math.max(inside.most, inside.now);
    await new Promise((r) => setImmediate(r));
    inside.now--;
    return value;
  };
  return {
    hashPassword: (plain: string) => run(`hash of ${plain}`),
    // As the real one does for a hash with no "salt:key".
    verifyPassword: ({ hash, password }: { hash: string; password: string }) =>
      hash
        ? run(hash === `hash of ${password}`)
        : run(null).then(() => {
            throw new Error("Invalid password hash");
          }),
  };
});

const { PASSWORD_HASH_CONCURRENCY, password } = await import("@/lib/auth/password");

beforeEach(() => {
  inside.now = 0;
  inside.most = 0;
});

describe("password hashing's bound", () => {
  it("is one per core, at least one and at most libuv's 4 pool threads", () => {
    expect(PASSWORD_HASH_CONCURRENCY).toBeGreaterThanOrEqual(1);
    expect(PASSWORD_HASH_CONCURRENCY).toBeLessThanOrEqual(4);
  });

  it("lets hashes and verifications share one line, never more at once than the bound", async () => {
    const many = 4 * PASSWORD_HASH_CONCURRENCY + 3;
    const results = await Promise.all(
      Array.from({ length: many }, (_, i) =>
        i % 2 === 0
          ? password.hash(`p${i}`)
          : password.verify({ hash: `hash of p${i}`, password: `p${i}` }),
      ),
    );
    expect(inside.most).toBe(PASSWORD_HASH_CONCURRENCY);
    expect(inside.now).toBe(0);
    expect(results).toEqual(
      Array.from({ length: many }, (_, i) => (i % 2 === 0 ? `hash of p${i}` : true)),
    );
  });

  it("passes a failing hash's error to its caller and keeps serving the line", async () => {
    const broken = Array.from({ length: 2 * PASSWORD_HASH_CONCURRENCY }, () =>
      password.verify({ hash: "", password: "x" }),
    );
    for (const b of broken) await expect(b).rejects.toThrow("Invalid password hash");
    // Every slot the failures held was given back.
    const after = await Promise.all([password.hash("a"), password.hash("b")]);
    expect(after).toEqual(["hash of a", "hash of b"]);
    expect(inside.now).toBe(0);
  });
});
