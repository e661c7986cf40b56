/**
 * Password hashing through lib/auth/password.ts (kept within the memory a small server has): better-auth's own scrypt with
 * a bound on how many hashes run at once (tests/unit/password-limit.test.ts). The bound must
 * change nothing else: a hash written before it (the seed's, or the literal below) still
 * verifies, a new hash has the same format and parameters, and sign-in really goes through it.
 */
import { verifyPassword } from "better-auth/crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as authPost } from "@/app/api/auth/[...all]/route";
import { account, user } from "@/db/schema";
import { DEMO_PASSWORD } from "@/db/seed-data";
import { getAuth } from "@/lib/auth/auth";
import { password } from "@/lib/auth/password";
import { useTestDatabase } from "../helpers/db";
import { request } from "../helpers/http";

/** The demo password as better-auth 1.7.25 hashed it before the bound (node:crypto scrypt). */
const OLD_HASH =
  "5851f21ea964c8c296e754895af8c073:53565238784e376ebead88af4c39941f352e7a8babddb592f37b763e0e547d4252893e7dba6d053392082b5311a51e448a0258ef609b926916a4bb09cf2e9d3c";
/** better-auth's format: a 16-byte salt and a 64-byte scrypt key, both hex. */
const FORMAT = /^[0-9a-f]{32}:[0-9a-f]{128}$/;

let db: Awaited<ReturnType<typeof useTestDatabase>>["db"];

beforeAll(async () => {
  ({ db } = await useTestDatabase());
});

describe("password hashing", () => {
  it("verifies a hash written before the bound, and refuses a wrong password", async () => {
    expect(await password.verify({ hash: OLD_HASH, password: DEMO_PASSWORD })).toBe(true);
    expect(await password.verify({ hash: OLD_HASH, password: `${DEMO_PASSWORD}!` })).toBe(false);
  });

  it("verifies the hash the seed stored", async () => {
    const [row] = await db
      .select({ hash: account.password })
      .from(account)
      .innerJoin(user, eq(user.id, account.userId))
      .where(eq(user.email, "anna@example.com"));
    expect(row?.hash).toMatch(FORMAT);
    expect(await password.verify({ hash: row!.hash!, password: DEMO_PASSWORD })).toBe(true);
  });

  it("writes a new hash in better-auth's format, which better-auth's own verifier accepts", async () => {
    const hash = await password.hash("a new password");
    expect(hash).toMatch(FORMAT);
    expect(await verifyPassword({ hash, password: "a new password" })).toBe(true);
    // A fresh salt each time, as before.
    expect(await password.hash("a new password")).not.toBe(hash);
  });

  it("is what better-auth hashes and verifies with, and sign-in goes through it", async () => {
    const ctx = await getAuth().$context;
    expect(ctx.password.hash).toBe(password.hash);
    expect(ctx.password.verify).toBe(password.verify);
    const res = await authPost(
      request("/api/auth/sign-in/email", {
        body: { email: "anna@example.com", password: DEMO_PASSWORD },
        headers: { "x-returns-desk-peer": "192.0.2.77" },
      }),
    );
    expect(res.status).toBe(200);
  });
});
