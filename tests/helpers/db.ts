import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type Database from "better-sqlite3";
import { eq } from "drizzle-orm";
import { closeDb, type Db, getConnection, getDb } from "@/db";
import { initDatabase } from "@/db/init";
import { user } from "@/db/schema";
import { resetEnv } from "@/lib/env";

/**
 * Points this test process at a fresh SQLite file (real file, real migrations, demo seed)
 * and returns it. Call from beforeAll/beforeEach.
 */
export async function useTestDatabase(
  opts: { seed?: boolean; env?: Record<string, string> } = {},
): Promise<{ db: Db; file: string; dir: string }> {
  await closeDb();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-test-"));
  const file = path.join(dir, "test.db");
  process.env.DATABASE_PATH = file;
  process.env.SEED_DEMO = opts.seed === false ? "0" : "1";
  for (const [k, v] of Object.entries(opts.env ?? {})) process.env[k] = v;
  resetEnv();
  await initDatabase();
  return { db: getDb(), file, dir };
}

/** The better-sqlite3 handle under the SQLite connection, for SQLite-only tests (query plans). */
export function sqliteClient(): Database.Database {
  const conn = getConnection();
  if (conn.dialect !== "sqlite") throw new Error("a SQLite-only test ran on PostgreSQL");
  return conn.client;
}

/** A user's id by email, on either dialect. */
export async function userIdOf(email: string): Promise<string> {
  const row = await getDb().select({ id: user.id }).from(user).where(eq(user.email, email));
  if (!row[0]) throw new Error(`no user ${email}`);
  return row[0].id;
}
