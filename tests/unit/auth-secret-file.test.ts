/**
 * The session secret, in this process (tests/integration/auth-secret.test.ts also starts the
 * server): BETTER_AUTH_SECRET when set; otherwise a file generated once next to the database,
 * owner-only, read back trimmed; a file too short to be a secret stops the start with a message
 * that says what to do, and is never replaced or padded.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { authSecret } from "@/lib/auth/secret";
import { resetEnv } from "@/lib/env";

/** A fresh data folder (not created yet: the secret's writer makes it) and its secret file. */
function dataDir(): { dir: string; secretFile: string } {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-secret-")), "data");
  process.env.DATABASE_PATH = path.join(dir, "app.db");
  delete process.env.BETTER_AUTH_SECRET;
  resetEnv();
  return { dir, secretFile: path.join(dir, ".auth-secret") };
}

const message = (file: string, what: string) =>
  `The session secret file ${file} is ${what} (probably a crash during the first start). ` +
  "Delete it and start again to generate a new one (everyone will have to sign in again), " +
  "or set BETTER_AUTH_SECRET (32+ characters).";

describe("authSecret", () => {
  afterEach(() => {
    delete process.env.BETTER_AUTH_SECRET;
    resetEnv();
  });

  it("generates one owner-only secret file and reads the same secret back", () => {
    const { dir, secretFile } = dataDir();
    const first = authSecret();
    expect(first).toMatch(/^[\w-]{43}$/);
    expect(fs.statSync(secretFile).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(authSecret()).toBe(first);
    expect(fs.readdirSync(dir)).toEqual([".auth-secret"]);
  });

  it("keeps a secret an operator wrote, without the line break around it", () => {
    const { dir, secretFile } = dataDir();
    fs.mkdirSync(dir, { recursive: true });
    const exactly32 = "k".repeat(32);
    fs.writeFileSync(secretFile, `  ${exactly32}\n`);
    expect(authSecret()).toBe(exactly32);
    expect(fs.readFileSync(secretFile, "utf8")).toBe(`  ${exactly32}\n`);
  });

  it.each([
    ["empty", "", "empty"],
    ["only a line break", "\n", "empty"],
    ["31 characters", `${"k".repeat(31)}\n`, "too short"],
  ])(
    "refuses a file that is %s, saying what to do, and leaves it as it was",
    (_what, content, said) => {
      const { dir, secretFile } = dataDir();
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(secretFile, content);
      expect(() => authSecret()).toThrow(new Error(message(secretFile, said)));
      expect(fs.readFileSync(secretFile, "utf8")).toBe(content);
    },
  );

  it("uses BETTER_AUTH_SECRET when set, and never reads or writes a file for it", () => {
    const { dir, secretFile } = dataDir();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(secretFile, "");
    process.env.BETTER_AUTH_SECRET = "s".repeat(40);
    resetEnv();
    expect(authSecret()).toBe("s".repeat(40));
    expect(fs.readFileSync(secretFile, "utf8")).toBe("");
  });
});
