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
