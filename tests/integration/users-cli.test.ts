/**
 * `npm run users -- add` creates real accounts, with the password from standard
 * input (or a hidden prompt on a terminal). Run as a real subprocess, as an operator would, on a
 * real SQLite file; the account then signs in through the real sign-in route with its role.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as authGet, POST as authPost } from "@/app/api/auth/[...all]/route";
import { getStoreCustomerId } from "@/db/queries/users";
import {
  AccountError,
  createAccount,
  linkStoreCustomer,
  unlinkStoreCustomer,
} from "@/lib/auth/accounts";
import { userIdOf, useTestDatabase } from "../helpers/db";
import { request } from "../helpers/http";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PASSWORD = "correct horse battery 1";

/** `npm run users -- <args>` with `stdin` piped in; its exit code and output. */
function users(
  dbFile: string,
  args: string[],
  stdin: string,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "-s", "users", "--", ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_PATH: dbFile, SEED_DEMO: "", LOG_LEVEL: "silent" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", (d) => {
      err += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out, err }));
    child.stdin.end(stdin);
  });
}

const signIn = (email: string, password: string) =>
  authPost(request("/api/auth/sign-in/email", { body: { email, password } }));

describe("npm run users", () => {
  let file: string;
  beforeAll(async () => {
    ({ file } = await useTestDatabase({ seed: false }));
  });

  it("--store-customer links a customer account to the store's customer", async () => {
    const r = await users(
      file,
      [
        "add",
        "--email",
        "linked@shop.example",
        "--role",
        "customer",
        "--store-customer",
        "cus_01ABC",
      ],
      `${PASSWORD}\n`,
    );
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain("linked to store customer cus_01ABC");
    const id = await userIdOf("linked@shop.example");
    expect(await getStoreCustomerId({ userId: id })).toBe("cus_01ABC");
    // A staff account has no orders at the store: refused, nothing created.
    const staff = await users(
      file,
      ["add", "--email", "staff2@shop.example", "--role", "staff", "--store-customer", "cus_02"],
      `${PASSWORD}\n`,
    );
    expect(staff.code).toBe(2);
  });

  it("link and unlink set and clear an existing customer's store customer, refusing what would mislink", async () => {
    const link = (email: string, id: string, extra: string[] = []) =>
      users(file, ["link", "--email", email, "--store-customer", id, ...extra], "");
    const linkOf = async (email: string) => getStoreCustomerId({ userId: await userIdOf(email) });
    // Accounts made in-process (each CLI run costs seconds); the CLI is run where its own
    // handling is what is tested: parsing, messages, exit codes.
    for (const [email, role] of [
      ["lena@shop.example", "customer"],
      ["omar@shop.example", "customer"],
      ["ops@shop.example", "staff"],
    ] as const)
      await createAccount({ email, role, name: email.split("@")[0]!, password: PASSWORD });

    // The email as typed by hand (capitals, blanks) finds the account.
    const r = await link(" Lena@Shop.example ", "cus_LENA");
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toBe("Linked lena@shop.example to store customer cus_LENA.\n");
    expect(await linkOf("lena@shop.example")).toBe("cus_LENA");
    // Again with the same id: nothing to do.
    expect(
      await linkStoreCustomer({ email: "lena@shop.example", storeCustomerId: "cus_LENA" }),
    ).toEqual({ email: "lena@shop.example", previous: "cus_LENA" });

    // Another id moves the account's orders: only with --replace.
    const moved = await link("lena@shop.example", "cus_OTHER");
    expect(moved.code).toBe(1);
    expect(moved.err).toMatch(/already linked to store customer cus_LENA; add --replace/);
    expect(moved.out).toBe("");
    expect(await linkOf("lena@shop.example")).toBe("cus_LENA");
    await linkStoreCustomer({
      email: "lena@shop.example",
      storeCustomerId: "cus_LENA2",
      replace: true,
    });
    expect(await linkOf("lena@shop.example")).toBe("cus_LENA2");

    // One account per store customer: Omar cannot take Lena's, not even with replace.
    await expect(
      linkStoreCustomer({
        email: "omar@shop.example",
        storeCustomerId: "cus_LENA2",
        replace: true,
      }),
    ).rejects.toThrow(/cus_LENA2 is already linked to lena@shop\.example/);
    // Nor can a new account: refused before anything is written.
    await expect(
      createAccount({
        email: "nia@shop.example",
        role: "customer",
        name: "Nia",
        password: PASSWORD,
        storeCustomerId: "cus_LENA2",
      }),
    ).rejects.toThrow(/already linked to lena@shop\.example/);
    expect((await signIn("nia@shop.example", PASSWORD)).status).not.toBe(200);

    for (const [email, id, message] of [
      ["nobody@shop.example", "cus_X", /No account with the email nobody@shop\.example/],
      ["ops@shop.example", "cus_X", /staff account; only a customer/],
      ["omar@shop.example", "cus 1", /printable characters, no spaces/],
      ["omar@shop.example", "  ", /empty/],
      ["omar@shop.example", "x".repeat(201), /longer than 200/],
    ] as const) {
      const refused = linkStoreCustomer({ email, storeCustomerId: id });
      await expect(refused, `${email} ${id}`).rejects.toThrow(AccountError);
      await expect(refused).rejects.toThrow(message);
    }
    expect(await linkOf("omar@shop.example")).toBeNull();
    expect(await linkOf("ops@shop.example")).toBeNull();

    // A usage error: what a command does not take.
    const unlinkWithId = await users(
      file,
      ["unlink", "--email", "lena@shop.example", "--store-customer", "cus_LENA2"],
      "",
    );
    expect(unlinkWithId.code).toBe(2);
    expect(unlinkWithId.err).toMatch(/unlink does not take --store-customer/);
    expect(await linkOf("lena@shop.example")).toBe("cus_LENA2");

    const unlinked = await users(file, ["unlink", "--email", "lena@shop.example"], "");
    expect(unlinked.code).toBe(0);
    expect(unlinked.out).toBe("Unlinked lena@shop.example from store customer cus_LENA2.\n");
    expect(await linkOf("lena@shop.example")).toBeNull();
    expect(await unlinkStoreCustomer({ email: "lena@shop.example" })).toBeNull();
    // Unlinked, the store customer is free for another account.
    await linkStoreCustomer({ email: "omar@shop.example", storeCustomerId: "cus_LENA2" });
    expect(await linkOf("omar@shop.example")).toBe("cus_LENA2");
  }, 120_000);

  it("adds a staff account whose password comes from stdin; it signs in as staff", async () => {
    const r = await users(
      file,
      ["add", "--email", "Sam.Lee@Shop.example", "--role", "staff", "--name", "Sam Lee"],
      `${PASSWORD}\n`,
    );
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Created staff account sam\.lee@shop\.example \(id \S+\)\.\n$/);
    expect(r.out).not.toContain(PASSWORD);

    expect((await signIn("sam.lee@shop.example", "not the password")).status).toBe(401);
    const res = await signIn("sam.lee@shop.example", PASSWORD);
    expect(res.status).toBe(200);
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const session = await (await authGet(request("/api/auth/get-session", { cookie }))).json();
    expect(session.user).toMatchObject({
      email: "sam.lee@shop.example",
      name: "Sam Lee",
      role: "staff",
    });
  });

  it("adds a customer (name from the email) who signs in", async () => {
    const r = await users(
      file,
      ["add", "--email", "kim@shop.example", "--role", "customer"],
      PASSWORD,
    );
    expect(r.code).toBe(0);
    const res = await signIn("kim@shop.example", PASSWORD);
    expect(res.status).toBe(200);
    expect((await res.json()).user).toMatchObject({ name: "kim", role: "customer" });
  });

  it.each([
    [
      "an existing email",
      ["add", "--email", "SAM.LEE@shop.example", "--role", "customer"],
      `${PASSWORD}\n`,
      1,
      /already exists/,
    ],
    [
      "a password under 8 characters",
      ["add", "--email", "a@shop.example", "--role", "customer"],
      "short\n",
      1,
      /at least 8/,
    ],
    [
      "no password at all",
      ["add", "--email", "b@shop.example", "--role", "customer"],
      "",
      1,
      /at least 8/,
    ],
    [
      "a role that does not exist",
      ["add", "--email", "c@shop.example", "--role", "admin"],
      `${PASSWORD}\n`,
      2,
      /Usage/,
    ],
    ["no email", ["add", "--role", "staff"], `${PASSWORD}\n`, 2, /Usage/],
    ["not an email", ["add", "--email", "nobody", "--role", "staff"], `${PASSWORD}\n`, 1, /email/],
  ] as const)("refuses %s, creating nothing", async (_what, args, stdin, code, message) => {
    const r = await users(file, [...args], stdin);
    expect(r.code).toBe(code);
    expect(r.err).toMatch(message);
    expect(r.out).toBe("");
    const list: readonly string[] = args;
    const email = list.includes("--email") ? list[list.indexOf("--email") + 1] : undefined;
    if (email && email !== "SAM.LEE@shop.example")
      expect((await signIn(email, PASSWORD)).status).not.toBe(200);
  });
});
