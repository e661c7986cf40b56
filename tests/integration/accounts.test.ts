/**
 * The accounts an operator creates and links (lib/auth/accounts.ts), called in-process: every
 * refusal names what is wrong and writes nothing, a created account has exactly the rows
 * better-auth's own sign-up would write, and a store link is one account per store customer.
 * `npm run users` itself (parsing, messages, exit codes, a subprocess) is users-cli.test.ts.
 */
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { POST as authPost } from "@/app/api/auth/[...all]/route";
import { getDb } from "@/db";
import { getStoreCustomerId } from "@/db/queries/users";
import { account, user } from "@/db/schema";
import {
  AccountError,
  createAccount,
  linkStoreCustomer,
  unlinkStoreCustomer,
} from "@/lib/auth/accounts";
import { useTestDatabase } from "../helpers/db";
import { request } from "../helpers/http";

const PASSWORD = "correct horse battery 1";

beforeEach(async () => {
  await useTestDatabase({ seed: false });
});

const users = () => getDb().select().from(user);
const accounts = () => getDb().select().from(account);
const linkOf = async (email: string) => {
  const [row] = await getDb().select({ id: user.id }).from(user).where(eq(user.email, email));
  return row ? getStoreCustomerId({ userId: row.id }) : undefined;
};
const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    if (err instanceof AccountError) return err.message;
    throw err;
  }
  throw new Error("expected an AccountError");
};

describe("createAccount", () => {
  it("creates a user and its credential account, which signs in with that password", async () => {
    const made = await createAccount({
      email: "lena@shop.example",
      name: "Lena",
      role: "staff",
      password: PASSWORD,
    });
    expect(made).toMatchObject({
      email: "lena@shop.example",
      role: "staff",
      storeCustomerId: null,
    });
    const [u] = await users();
    expect(u).toMatchObject({
      id: made.id,
      email: "lena@shop.example",
      name: "Lena",
      role: "staff",
    });
    expect(u?.emailVerified).toBe(true);
    const [a] = await accounts();
    expect(a).toMatchObject({ userId: made.id, providerId: "credential", accountId: made.id });
    expect(a?.password).toBeTruthy();
    expect(a?.password).not.toContain(PASSWORD);
    const signIn = (password: string) =>
      authPost(
        request("/api/auth/sign-in/email", { body: { email: "lena@shop.example", password } }),
      );
    expect((await signIn(PASSWORD)).status).toBe(200);
    expect((await signIn("wrong horse battery 1")).status).toBe(401);
  });

  it("links a customer to its store customer in the same step", async () => {
    const made = await createAccount({
      email: "omar@shop.example",
      name: "Omar",
      role: "customer",
      password: PASSWORD,
      storeCustomerId: " cus_01ABC ",
    });
    expect(made.storeCustomerId).toBe("cus_01ABC");
    expect(await linkOf("omar@shop.example")).toBe("cus_01ABC");
  });

  const long = "x".repeat(129);
  it.each([
    ["an email that is not one", { email: "not-an-email" }, /^email: /],
    ["an empty name", { name: "   " }, /^name: /],
    ["a role that does not exist", { role: "admin" }, /^role: /],
    ["a short password", { password: "short" }, /^The password needs at least 8 characters\.$/],
    ["a long password", { password: long }, /^The password may have at most 128 characters\.$/],
    [
      "a staff account with a store link",
      { role: "staff", storeCustomerId: "cus_1" },
      /^Only a customer account can be linked to a store customer\.$/,
    ],
    [
      "a store customer id with a space",
      { storeCustomerId: "cus 1" },
      /^Refused: the store customer id may only have printable characters, no spaces\.$/,
    ],
    [
      "an empty store customer id",
      { storeCustomerId: " " },
      /^Refused: the store customer id is empty\.$/,
    ],
  ])("refuses %s, writing nothing", async (_what, change, message) => {
    const input = {
      email: "nia@shop.example",
      name: "Nia",
      role: "customer",
      password: PASSWORD,
      ...change,
    } as Parameters<typeof createAccount>[0];
    expect(await refusal(createAccount(input))).toMatch(message);
    expect(await users()).toEqual([]);
    expect(await accounts()).toEqual([]);
  });

  it("refuses an email that already has an account, and a store customer already linked", async () => {
    await createAccount({
      email: "lena@shop.example",
      name: "Lena",
      role: "customer",
      password: PASSWORD,
      storeCustomerId: "cus_LENA",
    });
    expect(
      await refusal(
        createAccount({
          email: "lena@shop.example",
          name: "L",
          role: "customer",
          password: PASSWORD,
        }),
      ),
    ).toBe("An account with the email lena@shop.example already exists.");
    expect(
      await refusal(
        createAccount({
          email: "nia@shop.example",
          name: "Nia",
          role: "customer",
          password: PASSWORD,
          storeCustomerId: "cus_LENA",
        }),
      ),
    ).toBe(
      "Store customer cus_LENA is already linked to lena@shop.example; unlink that account first.",
    );
    expect((await users()).map((u) => u.email)).toEqual(["lena@shop.example"]);
    expect(await accounts()).toHaveLength(1);
  });
});

describe("linkStoreCustomer and unlinkStoreCustomer", () => {
  beforeEach(async () => {
    for (const [email, role] of [
      ["lena@shop.example", "customer"],
      ["omar@shop.example", "customer"],
      ["ops@shop.example", "staff"],
    ] as const)
      await createAccount({ email, role, name: email.split("@")[0]!, password: PASSWORD });
  });

  it("links the account the typed email names, once; another id only with replace", async () => {
    expect(
      await linkStoreCustomer({ email: " Lena@Shop.example ", storeCustomerId: "cus_LENA" }),
    ).toEqual({ email: "lena@shop.example", previous: null });
    expect(
      await linkStoreCustomer({ email: "lena@shop.example", storeCustomerId: "cus_LENA" }),
    ).toEqual({ email: "lena@shop.example", previous: "cus_LENA" });
    expect(
      await refusal(linkStoreCustomer({ email: "lena@shop.example", storeCustomerId: "cus_NEW" })),
    ).toBe(
      "lena@shop.example is already linked to store customer cus_LENA; add --replace to link it to cus_NEW instead.",
    );
    expect(await linkOf("lena@shop.example")).toBe("cus_LENA");
    expect(
      await linkStoreCustomer({
        email: "lena@shop.example",
        storeCustomerId: "cus_NEW",
        replace: true,
      }),
    ).toEqual({ email: "lena@shop.example", previous: "cus_LENA" });
    expect(await linkOf("lena@shop.example")).toBe("cus_NEW");
  });

  it("refuses a missing account, a staff account, a bad id and another account's store customer", async () => {
    await linkStoreCustomer({ email: "lena@shop.example", storeCustomerId: "cus_LENA" });
    const cases: [Parameters<typeof linkStoreCustomer>[0], string][] = [
      [
        { email: "nobody@shop.example", storeCustomerId: "cus_X" },
        "No account with the email nobody@shop.example.",
      ],
      [
        { email: "ops@shop.example", storeCustomerId: "cus_X" },
        "ops@shop.example is a staff account; only a customer has orders at the store.",
      ],
      [
        { email: "omar@shop.example", storeCustomerId: "x".repeat(201) },
        "Refused: the store customer id is longer than 200 characters.",
      ],
      [
        { email: "omar@shop.example", storeCustomerId: "cus_LENA", replace: true },
        "Store customer cus_LENA is already linked to lena@shop.example; unlink that account first.",
      ],
    ];
    for (const [input, message] of cases)
      expect(await refusal(linkStoreCustomer(input)), JSON.stringify(input)).toBe(message);
    expect(await linkOf("omar@shop.example")).toBeNull();
    expect(await linkOf("ops@shop.example")).toBeNull();
    expect(await linkOf("lena@shop.example")).toBe("cus_LENA");
  });

  it("unlinks and answers what the link was; a missing account is refused", async () => {
    await linkStoreCustomer({ email: "lena@shop.example", storeCustomerId: "cus_LENA" });
    expect(await unlinkStoreCustomer({ email: " LENA@shop.example" })).toBe("cus_LENA");
    expect(await linkOf("lena@shop.example")).toBeNull();
    expect(await unlinkStoreCustomer({ email: "lena@shop.example" })).toBeNull();
    expect(await refusal(unlinkStoreCustomer({ email: "nobody@shop.example" }))).toBe(
      "No account with the email nobody@shop.example.",
    );
    // The freed store customer may now go to another account.
    await linkStoreCustomer({ email: "omar@shop.example", storeCustomerId: "cus_LENA" });
    expect(await linkOf("omar@shop.example")).toBe("cus_LENA");
  });
});
