/**
 * The SQLite connection: one per process (cached on globalThis so dev reloads and route modules
 * share it), WAL for concurrent readers, foreign keys on, and a busy timeout so a second process
 * (tests, benchmarks) waits for the write lock instead of failing. Migrations are applied on open,
 * so a new or an old database file is always at the current schema.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { type BetterSQLite3Database, drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { env } from "../lib/env";
import * as schema from "./schema";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

const MIGRATIONS = path.join(process.cwd(), "db", "migrations");

type Cache = { path: string; db: Db };
const g = globalThis as unknown as { __returnsDeskDb?: Cache };

/** Opens (creating folders), configures and migrates a database file. */
export function openDatabase(file: string): Db {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const client = new Database(file);
  client.pragma("journal_mode = WAL");
  client.pragma("foreign_keys = ON");
  client.pragma("busy_timeout = 5000");
  client.pragma("synchronous = NORMAL");
  const db = drizzle(client, { schema }) as Db;
  migrate(db, { migrationsFolder: MIGRATIONS });
  return db;
}

/** The process-wide database at DATABASE_PATH. */
export function getDb(): Db {
  const file = env().DATABASE_PATH;
  const cached = g.__returnsDeskDb;
  if (cached && cached.path === file) return cached.db;
  cached?.db.$client.close();
  const db = openDatabase(file);
  g.__returnsDeskDb = { path: file, db };
  return db;
}

/** Closes the cached connection (tests switching files, graceful shutdown). */
export function closeDb(): void {
  g.__returnsDeskDb?.db.$client.close();
  g.__returnsDeskDb = undefined;
}

export { schema };
