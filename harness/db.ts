import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type Database from "better-sqlite3";
import { eq, getTableName, is, Table } from "drizzle-orm";
import pg from "pg";
import { closeDb, type Db, getConnection, getDb } from "@/db";
import { initDatabase } from "@/db/init";
import { totalChanges } from "@/db/queries/tx";
import * as schema from "@/db/schema";
import { user } from "@/db/schema";
import { resetEnv } from "@/lib/env";

/**
 * The dialect this test process runs on: vitest's "postgres" project sets TEST_DIALECT (see
 * vitest.config.ts) and tests/helpers/setup.ts points DATABASE_URL at TEST_DATABASE_URL before
 * any module is imported, so db/schema picks the PostgreSQL tables.
 */
export const onPostgres = () => process.env.TEST_DIALECT === "postgres";

/** Databases this process created on the test server, dropped when the file is done. */
const created: string[] = [];

/**
 * Points this test process at a fresh database (real migrations, demo seed) and returns it:
 * a new SQLite file, or on the "postgres" project a new PostgreSQL database created on
 * TEST_DATABASE_URL's server. `file` is what a worker process needs to reach the same database
 * (see workerEnv). Call from beforeAll/beforeEach.
 */
export async function useTestDatabase(
  /** seed: true (default) SEED_DEMO=1, false SEED_DEMO=0, "unset" leaves the choice to lib/env.ts. */
  opts: { seed?: boolean | "unset"; env?: Record<string, string> } = {},
): Promise<{ db: Db; file: string; dir: string }> {
  await closeDb();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-test-"));
  let file = path.join(dir, "test.db");
  if (onPostgres()) {
    file = await createPostgresDatabase();
    process.env.DATABASE_URL = file;
    // Several instances need one session secret; the env schema requires it with DATABASE_URL.
    process.env.BETTER_AUTH_SECRET ??= "test-secret-test-secret-test-secret-0123";
  } else {
    process.env.DATABASE_PATH = file;
  }
  if (opts.seed === "unset") delete process.env.SEED_DEMO;
  else process.env.SEED_DEMO = opts.seed === false ? "0" : "1";
  for (const [k, v] of Object.entries(opts.env ?? {})) process.env[k] = v;
  resetEnv();
  await initDatabase();
  return { db: getDb(), file, dir };
}

/** The environment a worker process needs to open the test's database (file or URL). */
export function workerEnv(file: string): Record<string, string> {
  return /^postgres(ql)?:\/\//.test(file) ? { DATABASE_URL: file } : { DATABASE_PATH: file };
}

function serverUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error("TEST_DATABASE_URL is not set (the postgres project needs it)");
  return url;
}

/** CREATE DATABASE on the test server; returns its URL. Dropped by dropTestDatabases(). */
export async function createPostgresDatabase(): Promise<string> {
  const name = `rd_test_${process.pid}_${Date.now().toString(36)}_${created.length}`;
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  created.push(name);
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops every database this process created (FORCE: a killed worker may leave a session). */
export async function dropTestDatabases(): Promise<void> {
  await closeDb();
  if (created.length === 0) return;
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  try {
    for (const name of created.splice(0))
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** The better-sqlite3 handle under the SQLite connection, for SQLite-only tests (query plans). */
export function sqliteClient(): Database.Database {
  const conn = getConnection();
  if (conn.dialect !== "sqlite") throw new Error("a SQLite-only test ran on PostgreSQL");
  return conn.client;
}

/**
 * A mark that moves with any write to the database: SQLite's total_changes() (every row this
 * connection inserted, updated or deleted); on PostgreSQL a digest of every table's rows (its
 * statistics are flushed asynchronously, so they cannot tell "no write" reliably).
 */
export async function changeMark(): Promise<string> {
  if (!onPostgres()) return String(totalChanges());
  const conn = getConnection();
  if (conn.dialect !== "postgres") throw new Error("expected PostgreSQL");
  const parts: string[] = [];
  for (const t of Object.values(schema.tables)) {
    if (!is(t, Table)) continue;
    const name = getTableName(t);
    const { rows } = await conn.pool.query(
      `SELECT md5(coalesce(string_agg(x::text, ',' ORDER BY x::text), '')) AS h FROM "${name}" x`,
    );
    parts.push(`${name}:${rows[0]?.h}`);
  }
  return parts.join("|");
}

/** A user's id by email, on either dialect. */
export async function userIdOf(email: string): Promise<string> {
  const row = await getDb().select({ id: user.id }).from(user).where(eq(user.email, email));
  if (!row[0]) throw new Error(`no user ${email}`);
  return row[0].id;
}
