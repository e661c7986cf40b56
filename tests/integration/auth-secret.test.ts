/**
 * The generated session secret. An empty `.auth-secret` (a crash during an
 * earlier first start) is noticed: the start stops with a message that says what to do, and no
 * built-in fallback secret is ever used.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeDb } from "@/db";
import { authSecret } from "@/lib/auth/secret";
import { resetEnv } from "@/lib/env";
import { startServer } from "@/lib/startup";

function dataDir(): { dir: string; secretFile: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-secret-"));
  process.env.DATABASE_PATH = path.join(dir, "app.db");
  delete process.env.BETTER_AUTH_SECRET;
  resetEnv();
  return { dir, secretFile: path.join(dir, ".auth-secret") };
}

describe("the generated session secret", () => {
  afterEach(async () => {
    await closeDb();
    resetEnv();
  });

  it("is created once, 32+ characters, and read back the same", () => {
    const { secretFile } = dataDir();
    const first = authSecret();
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(fs.readFileSync(secretFile, "utf8").trim()).toBe(first);
    expect(authSecret()).toBe(first);
    // No temporary files left next to it.
    expect(fs.readdirSync(path.dirname(secretFile))).toEqual([".auth-secret"]);
  });

  it.each([
    ["empty", ""],
    ["whitespace only", "\n"],
    ["too short", "abc"],
  ])("stops with what to do when the file is %s", async (_what, content) => {
    const { secretFile } = dataDir();
    fs.writeFileSync(secretFile, content);
    expect(() => authSecret()).toThrow(
      /\.auth-secret.*Delete it and start again.*BETTER_AUTH_SECRET/s,
    );
    await expect(startServer()).rejects.toThrow(/Delete it and start again/);
    // Left as it was: nothing silently replaced it.
    expect(fs.readFileSync(secretFile, "utf8")).toBe(content);
  });

  it("uses BETTER_AUTH_SECRET when set, whatever the file says", () => {
    const { secretFile } = dataDir();
    fs.writeFileSync(secretFile, "");
    process.env.BETTER_AUTH_SECRET = "s".repeat(40);
    resetEnv();
    try {
      expect(authSecret()).toBe("s".repeat(40));
    } finally {
      delete process.env.BETTER_AUTH_SECRET;
    }
  });
});
