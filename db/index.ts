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

/**
 * Drizzle prepares (compiles) every query each time it runs, and compiling SQL is a measurable
 * share of a chat turn or a confirm (docs/benchmarks.md). Our SQL texts are few and
 * parameterized, so the compiled statements are kept per text (bounded, least recently used
 * first out). A cached statement is reused only when it is idle (not in the middle of an
 * iterate()) and with its result mode reset, because drizzle switches statements to raw mode.
 */
function cacheStatements(client: Database.Database, max = 256): void {
  const compile = client.prepare.bind(client);
  const cache = new Map<string, Database.Statement>();
  const prepare = (source: string): Database.Statement => {
    const hit = cache.get(source);
    if (hit && !hit.busy) {
      cache.delete(source);
      cache.set(source, hit);
      if (hit.reader) hit.raw(false).pluck(false).expand(false);
      return hit;
    }
    const stmt = compile(source);
    if (!hit) {
      cache.set(source, stmt);
      if (cache.size > max) cache.delete(cache.keys().next().value as string);
    }
    return stmt;
  };
  client.prepare = prepare as typeof client.prepare;
}

/** Opens (creating folders), configures and migrates a database file. */
export function openDatabase(file: string): Db {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const client = new Database(file);
  cacheStatements(client);
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
