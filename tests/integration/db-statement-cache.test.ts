/**
 * The compiled-statement cache in db/index.ts must be invisible: a statement drizzle left in
 * raw mode answers in object mode to the next caller, one in the middle of an iterate() is not
 * handed out again, and queries through drizzle keep returning what they did.
 */
import type Database from "better-sqlite3";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db";
import { user } from "@/db/schema";
import { sqliteClient, useTestDatabase } from "../helpers/db";

let db: Db;
let client: Database.Database;

beforeAll(async () => {
  ({ db } = await useTestDatabase());
  client = sqliteClient();
});

describe("compiled statement cache", () => {
  const SQL = "SELECT email FROM user WHERE role = ? ORDER BY email";

  it("hands the same compiled statement back for the same SQL", () => {
    expect(client.prepare(SQL)).toBe(client.prepare(SQL));
  });

  it("resets raw and pluck modes between callers", () => {
    const raw = client.prepare(SQL).raw().all("staff");
    expect(raw).toEqual([["staff@example.com"]]);
    const plucked = client.prepare(SQL).pluck().all("staff");
    expect(plucked).toEqual(["staff@example.com"]);
    expect(client.prepare(SQL).all("staff")).toEqual([{ email: "staff@example.com" }]);
  });

  it("never hands out a statement that is still iterating", () => {
    const emails: string[] = [];
    for (const row of client.prepare(SQL).iterate("customer") as Iterable<{ email: string }>) {
      // The same SQL while the first is mid-iteration: must be a fresh statement, not "busy".
      const again = client.prepare(SQL).all("customer") as { email: string }[];
      expect(again.length).toBeGreaterThan(0);
      emails.push(row.email);
    }
    // The demo's customers, and the account guests' orders are held by (nobody signs in to it).
    expect(emails).toEqual([
      "anna@example.com",
      "boris@example.com",
      "guest-checkout@checkout.invalid",
    ]);
  });

  it("keeps drizzle's mapped rows and plain rows apart for the same query text", async () => {
    const mapped = await db.select({ email: user.email }).from(user).where(eq(user.role, "staff"));
    expect(mapped).toEqual([{ email: "staff@example.com" }]);
    const again = await db.select({ email: user.email }).from(user).where(eq(user.role, "staff"));
    expect(again).toEqual(mapped);
  });
});
