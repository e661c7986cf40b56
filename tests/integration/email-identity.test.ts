/**
 * An email is one identity however it is written (trim, NFKC, lower case): the database refuses a
 * second account whose email differs only in case or surrounding space (a unique index on the
 * normalised form), and the migration that adds the index settles the near-duplicates an older
 * version let in without deleting any account or its rows. The token path that let them in is
 * tests/integration/embed-session.test.ts ("emails that differ only in case, space or Unicode
 * form are one identity"). SQLite, and PostgreSQL in the postgres project.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle as drizzleSqlite } from "drizzle-orm/better-sqlite3";
import { migrate as migrateSqlite } from "drizzle-orm/better-sqlite3/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { user } from "@/db/schema";
import { isUniqueViolation } from "@/db/transaction";
import { createPostgresDatabase, onPostgres, useTestDatabase } from "../helpers/db";

const dialect = () => (onPostgres() ? "pg" : "sqlite");
const MIGRATIONS = path.join(process.cwd(), "db", "migrations");

/**
 * The committed migrations up to, not including, the one that adds the normalised index (the state
 * an older version left), whatever migrations came after it.
 */
function migrationsBeforeEmailIndex(dir: string): string {
  const src = path.join(MIGRATIONS, dialect());
  fs.cpSync(src, dir, { recursive: true });
  const journalPath = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalPath, "utf8"));
  const at = journal.entries.findIndex((e: { tag: string }) =>
    fs
      .readFileSync(path.join(src, `${e.tag}.sql`), "utf8")
      .includes("user_email_normalized_unique"),
  );
  expect(at).toBeGreaterThan(0);
  for (const later of journal.entries.splice(at)) fs.rmSync(path.join(dir, `${later.tag}.sql`));
  fs.writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

type Sql = { run(sql: string): Promise<void>; rows<T>(sql: string): Promise<T[]> };

describe("one account per normalised email", () => {
  beforeAll(async () => {
    await useTestDatabase();
  });

  it.each([["ANNA@EXAMPLE.COM"], ["Anna@example.com"], [" anna@example.com "]])(
    "the database refuses a second account for %j",
    async (email) => {
      const now = new Date();
      let caught: unknown;
      try {
        await getDb()
          .insert(user)
          .values({
            id: `dup-${email.trim()}`,
            name: "Look-alike",
            email,
            emailVerified: true,
            role: "customer",
            createdAt: now,
            updatedAt: now,
          });
      } catch (err) {
        caught = err;
      }
      expect(isUniqueViolation(caught)).toBe(true);
    },
  );
});

describe("the migration that adds the index", () => {
  let tmp: string;
  let sql: Sql;
  let close: () => Promise<void>;
  let migrate: (folder: string) => Promise<void>;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-email-"));
    if (onPostgres()) {
      const pool = new pg.Pool({ connectionString: await createPostgresDatabase() });
      sql = {
        run: async (q) => void (await pool.query(q)),
        rows: async (q) => (await pool.query(q)).rows,
      };
      migrate = (folder) => migratePg(drizzlePg(pool), { migrationsFolder: folder });
      close = () => pool.end();
    } else {
      const client = new Database(path.join(tmp, "app.db"));
      sql = {
        run: async (q) => void client.exec(q),
        rows: async <T>(q: string) => client.prepare(q).all() as T[],
      };
      migrate = async (folder) =>
        migrateSqlite(drizzleSqlite(client), { migrationsFolder: folder });
      close = async () => void client.close();
    }
  });
  afterAll(async () => {
    await close?.();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("keeps every account and its rows; the oldest keeps the email, newer look-alikes are moved aside and signed out", async () => {
    await migrate(migrationsBeforeEmailIndex(path.join(tmp, "older")));
    const q = onPostgres() ? '"' : "`";
    const users: [string, string, number][] = [
      ["u-anna", "anna@example.com", 1_000],
      ["u-anna-upper", "ANNA@EXAMPLE.COM", 2_000],
      ["u-anna-mixed", " Anna@example.com", 3_000],
      ["u-staff", "staff@example.com", 1_000],
      ["u-staff-upper", "STAFF@example.com", 5_000],
      ["u-boris", "Boris@Example.com", 1_000],
    ];
    for (const [id, email, at] of users) {
      await sql.run(
        `INSERT INTO ${q}user${q} (id, name, email, email_verified, role, guest, created_at, updated_at) VALUES ('${id}', '${id}', '${email}', ${onPostgres() ? "true" : 1}, 'customer', ${onPostgres() ? "false" : 0}, ${at}, ${at})`,
      );
      await sql.run(
        `INSERT INTO ${q}session${q} (id, expires_at, token, created_at, updated_at, user_id) VALUES ('s-${id}', ${Date.now() + 86_400_000}, 't-${id}', ${at}, ${at}, '${id}')`,
      );
    }
    await migrate(path.join(MIGRATIONS, dialect()));
    const rows = await sql.rows<{ id: string; email: string }>(
      `SELECT id, email FROM ${q}user${q} ORDER BY id`,
    );
    expect(Object.fromEntries(rows.map((r) => [r.id, r.email]))).toEqual({
      "u-anna": "anna@example.com",
      "u-anna-mixed": "anna@example.com.duplicate-u-anna-mixed.invalid",
      "u-anna-upper": "anna@example.com.duplicate-u-anna-upper.invalid",
      "u-boris": "boris@example.com",
      "u-staff": "staff@example.com",
      "u-staff-upper": "staff@example.com.duplicate-u-staff-upper.invalid",
    });
    const sessions = await sql.rows<{ user_id: string }>(
      `SELECT user_id FROM ${q}session${q} ORDER BY user_id`,
    );
    expect(sessions.map((s) => s.user_id)).toEqual(["u-anna", "u-boris", "u-staff"]);
    // From now on the index refuses a look-alike.
    await expect(
      sql.run(
        `INSERT INTO ${q}user${q} (id, name, email, email_verified, role, guest, created_at, updated_at) VALUES ('u-new', 'x', 'BORIS@example.com', ${onPostgres() ? "true" : 1}, 'customer', ${onPostgres() ? "false" : 0}, 9000, 9000)`,
      ),
    ).rejects.toThrow();
  });
});
