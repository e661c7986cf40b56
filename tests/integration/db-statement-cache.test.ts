/**
 * The compiled-statement cache in db/index.ts must be invisible: a statement drizzle left in
 * raw mode answers in object mode to the next caller, one in the middle of an iterate() is not
 * handed out again, and queries through drizzle keep returning what they did.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDatabase } from "@/db";
import { user } from "@/db/schema";
import { seedDemo } from "@/db/seed";

let db: Db;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-stmt-"));
  db = openDatabase(path.join(dir, "app.db"));
  await seedDemo(db);
});

afterAll(() => {
  db.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("compiled statement cache", () => {
  const SQL = "SELECT email FROM user WHERE role = ? ORDER BY email";

  it("hands the same compiled statement back for the same SQL", () => {
    expect(db.$client.prepare(SQL)).toBe(db.$client.prepare(SQL));
  });

  it("resets raw and pluck modes between callers", () => {
    const raw = db.$client.prepare(SQL).raw().all("staff");
    expect(raw).toEqual([["staff@example.com"]]);
    const plucked = db.$client.prepare(SQL).pluck().all("staff");
    expect(plucked).toEqual(["staff@example.com"]);
    expect(db.$client.prepare(SQL).all("staff")).toEqual([{ email: "staff@example.com" }]);
  });

  it("never hands out a statement that is still iterating", () => {
    const emails: string[] = [];
    for (const row of db.$client.prepare(SQL).iterate("customer") as Iterable<{ email: string }>) {
      // The same SQL while the first is mid-iteration: must be a fresh statement, not "busy".
      const again = db.$client.prepare(SQL).all("customer") as { email: string }[];
      expect(again.length).toBeGreaterThan(0);
      emails.push(row.email);
    }
    expect(emails).toEqual(["anna@example.com", "boris@example.com"]);
  });

  it("keeps drizzle's mapped rows and plain rows apart for the same query text", () => {
    const mapped = db.select({ email: user.email }).from(user).where(eq(user.role, "staff")).all();
    expect(mapped).toEqual([{ email: "staff@example.com" }]);
    const again = db.select({ email: user.email }).from(user).where(eq(user.role, "staff")).all();
    expect(again).toEqual(mapped);
  });
});
