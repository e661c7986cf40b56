/**
 * The edges of the accounts an operator creates (lib/auth/accounts.ts): the password length
 * limits are inclusive, every problem with the input is named at once, and two operators linking
 * the same store customer at the same moment get one link and one refusal that says why, with no
 * half-made account left behind. The common cases are in accounts.test.ts.
 */
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as authPost } from "@/app/api/auth/[...all]/route";
import { getDb } from "@/db";
import { account, user } from "@/db/schema";
import {
  AccountError,
  createAccount,
  linkStoreCustomer,
  unlinkStoreCustomer,
} from "@/lib/auth/accounts";
import { getCurrentUser } from "@/lib/auth/session";
import { useTestDatabase } from "../helpers/db";
import { request } from "../helpers/http";

beforeEach(async () => {
  await useTestDatabase({ seed: false });
});

const customer = (email: string, extra: { password?: string; storeCustomerId?: string } = {}) =>
  createAccount({
    email,
    name: email.split("@")[0]!,
    role: "customer",
    password: "correct horse battery 1",
    ...extra,
  });

const linkOf = async (email: string) =>
  (await getDb().select({ id: user.storeCustomerId }).from(user).where(eq(user.email, email)))[0]
    ?.id;

describe("createAccount at its limits", () => {
  it.each([
    ["8", "p".repeat(8)],
    ["128", "p".repeat(128)],
  ])("takes a password of exactly %s characters, which then signs in", async (_n, password) => {
    await customer("lena@shop.example", { password });
    const res = await authPost(
      request("/api/auth/sign-in/email", { body: { email: "lena@shop.example", password } }),
    );
    expect(res.status).toBe(200);
    // An operator's account is a full account, never a store page's guest.
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect(await getCurrentUser(new Headers({ cookie }))).toMatchObject({
      email: "lena@shop.example",
      role: "customer",
      guest: false,
      locale: null,
    });
  });

  it("names every problem with the input at once", async () => {
    const err = await createAccount({
      email: "not-an-email",
      name: " ",
      role: "customer",
      password: "correct horse battery 1",
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AccountError);
    expect((err as Error).message).toMatch(/^email: [^;]+; name: [^;]+$/);
  });
});

describe("two links of one store customer at the same moment", () => {
  it("linking two accounts: one gets it, the other is told it is taken", async () => {
    await customer("lena@shop.example");
    await customer("omar@shop.example");
    const results = await Promise.allSettled([
      linkStoreCustomer({ email: "lena@shop.example", storeCustomerId: "cus_SAME" }),
      linkStoreCustomer({ email: "omar@shop.example", storeCustomerId: "cus_SAME" }),
    ]);
    const refused = results.filter((r) => r.status === "rejected");
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(refused).toHaveLength(1);
    const reason = (refused[0] as PromiseRejectedResult).reason;
    expect(reason).toBeInstanceOf(AccountError);
    expect(reason.message).toBe("Store customer cus_SAME is already linked to another account.");
    const links = [await linkOf("lena@shop.example"), await linkOf("omar@shop.example")];
    expect(links.filter((l) => l === "cus_SAME")).toHaveLength(1);
    expect(links.filter((l) => l === null)).toHaveLength(1);
  });

  it("creating two accounts: one is made and linked, the other leaves no account behind", async () => {
    const results = await Promise.allSettled([
      customer("lena@shop.example", { storeCustomerId: "cus_SAME" }),
      customer("omar@shop.example", { storeCustomerId: "cus_SAME" }),
    ]);
    const made = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r) => r.status === "rejected");
    expect(made).toHaveLength(1);
    expect(refused).toHaveLength(1);
    const reason = (refused[0] as PromiseRejectedResult).reason;
    expect(reason).toBeInstanceOf(AccountError);
    expect(reason.message).toBe("Store customer cus_SAME is already linked to another account.");
    const winner = (made[0] as PromiseFulfilledResult<{ id: string; email: string }>).value;
    expect((await getDb().select({ id: user.id }).from(user)).map((u) => u.id)).toEqual([
      winner.id,
    ]);
    expect((await getDb().select({ u: account.userId }).from(account)).map((a) => a.u)).toEqual([
      winner.id,
    ]);
    expect(await linkOf(winner.email)).toBe("cus_SAME");
  });
});

describe("unlinking an account that has no link", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("answers null and leaves the account untouched", async () => {
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    await customer("lena@shop.example");
    const updatedAt = async () =>
      (
        await getDb()
          .select({ at: user.updatedAt })
          .from(user)
          .where(eq(user.email, "lena@shop.example"))
      )[0]?.at.getTime();
    expect(await updatedAt()).toBe(start);
    vi.setSystemTime(start + 60_000);
    expect(await unlinkStoreCustomer({ email: "lena@shop.example" })).toBeNull();
    expect(await updatedAt()).toBe(start);
    expect(await linkOf("lena@shop.example")).toBeNull();
  });
});
