/**
 * isUniqueViolation() tells a UNIQUE/PRIMARY KEY conflict from any other failure on both
 * databases: SQLite's codes, PostgreSQL's SQLSTATE 23505, plain (the driver's error) and wrapped
 * (drizzle's DrizzleQueryError, an Error whose cause is the driver's). recordOutcome relies on it
 * to settle two processes writing one outcome message. Runs on SQLite and PostgreSQL.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { isUniqueViolation } from "@/db/queries/tx";
import { chats } from "@/db/schema";
import { onPostgres, userIdOf, useTestDatabase } from "../helpers/db";

describe("isUniqueViolation", () => {
  it.each([
    ["SQLSTATE 23505, plain", { code: "23505" }, true],
    ["SQLSTATE 23505, wrapped", new Error("Failed query", { cause: { code: "23505" } }), true],
    [
      "SQLSTATE 23505, wrapped twice",
      new Error("outer", { cause: new Error("Failed query", { cause: { code: "23505" } }) }),
      true,
    ],
    ["SQLite UNIQUE", { code: "SQLITE_CONSTRAINT_UNIQUE" }, true],
    [
      "SQLite PRIMARY KEY, wrapped",
      new Error("x", { cause: { code: "SQLITE_CONSTRAINT_PRIMARYKEY" } }),
      true,
    ],
    ["a foreign key violation (23503)", { code: "23503" }, false],
    ["SQLite NOT NULL", { code: "SQLITE_CONSTRAINT_NOTNULL" }, false],
    ["an error without a code", new Error("boom"), false],
    ["nothing", undefined, false],
  ])("%s: %s", (_name, err, expected) => {
    expect(isUniqueViolation(err)).toBe(expected);
  });

  describe("on this test's database", () => {
    beforeAll(async () => {
      await useTestDatabase();
    });

    it(`a duplicate primary key from the real driver through drizzle (${onPostgres() ? "PostgreSQL" : "SQLite"})`, async () => {
      const userId = await userIdOf("anna@example.com");
      const now = new Date();
      const row = { id: randomUUID(), userId, createdAt: now, updatedAt: now };
      await getDb().insert(chats).values(row);
      const err = await getDb()
        .insert(chats)
        .values(row)
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(err).toBeInstanceOf(Error);
      expect(isUniqueViolation(err)).toBe(true);
    });
  });
});
