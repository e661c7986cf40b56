/**
 * The process's database: SQLite at DATABASE_PATH (the embedded default) or PostgreSQL at
 * DATABASE_URL (several instances on one database). db/queries is written once against the
 * query-builder surface both drizzle dialects share: build a query and `await` it; no
 * dialect-only calls such as SQLite's .get()/.all()/.run() (tests/unit/db-neutral.test.ts greps for
 * them). The `Db` type is drizzle's async SQLite database; on PostgreSQL the same calls go to a
 * node-postgres drizzle database with the tables of db/schema/pg.ts (same row types).
 *
 * SQLite: one better-sqlite3 connection per process. Its statements run through drizzle's
 * sqlite-proxy driver, so every statement, ours and better-auth's, passes through one async
 * function that serializes it with open transactions (db/tx-context.ts): a statement of another
 * request can never land inside someone's BEGIN IMMEDIATE ... COMMIT on the shared connection.
 * PostgreSQL: a node-postgres pool; a transaction runs on one pooled client.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { type SQL, sql } from "drizzle-orm";
import { drizzle as drizzleSqliteSync } from "drizzle-orm/better-sqlite3";
import { migrate as migrateSqlite } from "drizzle-orm/better-sqlite3/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzleProxy, type SqliteRemoteDatabase } from "drizzle-orm/sqlite-proxy";
import pg from "pg";
import { databaseConfig } from "./config";
import { type Dialect, dialectFromEnv } from "./dialect";
import * as schema from "./schema";
import { activeTx, Mutex } from "./tx-context";

export type Db = SqliteRemoteDatabase<typeof schema.tables>;

export type Connection =
  | {
      dialect: "sqlite";
      key: string;
      db: Db;
      client: Database.Database;
      /** Held by a transaction for its whole length, and by every statement outside one. */
      mutex: Mutex;
    }
  | { dialect: "postgres"; key: string; db: Db; pool: pg.Pool };

const MIGRATIONS = path.join(process.cwd(), "db", "migrations");
const g = globalThis as unknown as { __returnsDeskDb?: Connection };

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

type ProxyMethod = "run" | "all" | "values" | "get";

/** Runs one statement the way drizzle's sqlite-proxy driver expects (rows as arrays). */
function runSqlite(
  client: Database.Database,
  text: string,
  params: unknown[],
  method: ProxyMethod,
) {
  const stmt = client.prepare(text);
  if (!stmt.reader) {
    stmt.run(...params);
    return { rows: [] };
  }
  stmt.raw(true);
  if (method === "get") return { rows: stmt.get(...params) as unknown[] };
  return { rows: stmt.all(...params) as unknown[][] };
}

/**
 * The database holds customers' orders, chats and password hashes: only its owner may read it. A
 * folder made here is 0700 (a folder that already exists is the operator's choice and is left
 * alone: it may be shared, like /tmp). The file is created 0600 before SQLite opens it, because
 * SQLite gives its `-wal` and `-shm` files the mode of the database file; a file (or WAL) an older
 * version left 0644 is tightened.
 */
function ownerOnly(file: string): void {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
  fs.closeSync(fs.openSync(file, "a", 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      fs.chmodSync(f, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
  }
}

/** Opens (creating folders, owner-only), configures and migrates a database file. */
export function openSqlite(file: string): Connection & { dialect: "sqlite" } {
  if (file !== ":memory:") ownerOnly(file);
  const client = new Database(file);
  cacheStatements(client);
  client.pragma("journal_mode = WAL");
  client.pragma("foreign_keys = ON");
  client.pragma("busy_timeout = 5000");
  client.pragma("synchronous = NORMAL");
  // Migrations run synchronously before the connection is handed out. Several processes on one
  // file are safe: drizzle's migrator applies pending migrations inside one transaction.
  migrateSqlite(drizzleSqliteSync(client), {
    migrationsFolder: path.join(MIGRATIONS, "sqlite"),
  });
  const mutex = new Mutex();
  const conn = {
    dialect: "sqlite" as const,
    key: `sqlite:${file}`,
    client,
    mutex,
  } as Connection & {
    dialect: "sqlite";
  };
  conn.db = drizzleProxy(
    async (text, params, method) => {
      const exec = () => runSqlite(client, text, params, method);
      // Inside this connection's open transaction the statement belongs to it; anything else
      // waits until no transaction is open, then runs alone.
      return activeTx()?.conn === conn ? exec() : mutex.run(async () => exec());
    },
    { schema: schema.tables },
  );
  return conn;
}

function openPostgres(url: string): Connection & { dialect: "postgres" } {
  const pool = new pg.Pool({
    connectionString: url,
    max: databaseConfig().DATABASE_POOL_SIZE,
    // A connection error on an idle client must not crash the process; the next query reconnects.
  });
  pool.on("error", () => {});
  // The pool listens only to idle clients. A connection lost while a client is checked out (in
  // the middle of a transaction) fails the query in flight, and the client emits "error" too:
  // with no listener that was an uncaught exception that ended the process.
  pool.on("connect", (client) => client.on("error", () => {}));
  const db = drizzlePg(pool, { schema: schema.tables }) as unknown as Db;
  return { dialect: "postgres", key: `postgres:${url}`, db, pool };
}

/** The process-wide connection (opened on first use; SQLite is migrated on open). */
export function getConnection(): Connection {
  const e = databaseConfig();
  const dialect = dialectFromEnv(process.env);
  const key = dialect === "postgres" ? `postgres:${e.DATABASE_URL}` : `sqlite:${e.DATABASE_PATH}`;
  const cached = g.__returnsDeskDb;
  if (cached && cached.key === key) return cached;
  if (dialect !== schema.schemaDialect) {
    throw new Error(
      `This process imported the ${schema.schemaDialect} tables but DATABASE_URL now selects ${dialect}; a process uses one database dialect for its whole life.`,
    );
  }
  if (cached) void closeConnection(cached);
  const conn =
    dialect === "postgres" ? openPostgres(e.DATABASE_URL as string) : openSqlite(e.DATABASE_PATH);
  g.__returnsDeskDb = conn;
  return conn;
}

export function dialect(): Dialect {
  return getConnection().dialect;
}

/**
 * The database to build queries on: inside writeTransaction on PostgreSQL the transaction
 * (its pooled client); otherwise the pool, or the SQLite connection (whose statements find
 * their transaction themselves, see openSqlite).
 */
export function getDb(): Db {
  const conn = getConnection();
  const tx = activeTx();
  if (conn.dialect === "postgres" && tx?.conn === conn && tx.db) return tx.db;
  return conn.db;
}

/** Runs one SQL text that returns no rows we need (maintenance, pings), on either dialect. */
export async function execute(query: SQL): Promise<void> {
  const db = getDb() as unknown as {
    run?: (q: SQL) => Promise<unknown>;
    execute?: (q: SQL) => Promise<unknown>;
  };
  if (dialect() === "postgres") await db.execute!(query);
  else await db.run!(query);
}

/** Applies the committed migrations of the PostgreSQL dialect (SQLite migrates on open). */
export async function migratePostgres(): Promise<void> {
  const conn = getConnection();
  if (conn.dialect !== "postgres") return;
  await migratePg(drizzlePg(conn.pool), { migrationsFolder: path.join(MIGRATIONS, "pg") });
}

/**
 * Runs `fn` while holding a PostgreSQL session-level advisory lock on one pooled client, so of
 * several instances starting at once exactly one migrates, seeds and recovers at a time; the
 * others wait, then find the work done. On SQLite, `fn` simply runs.
 */
export async function withStartupLock<T>(fn: () => Promise<T>): Promise<T> {
  const conn = getConnection();
  if (conn.dialect !== "postgres") return fn();
  const client = await conn.pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [STARTUP_LOCK]);
    try {
      return await fn();
    } finally {
      await client.query("select pg_advisory_unlock($1)", [STARTUP_LOCK]);
    }
  } finally {
    client.release();
  }
}

/** An arbitrary constant naming "Returns Desk start-up" among advisory locks. */
const STARTUP_LOCK = 7_134_020_612;

async function closeConnection(conn: Connection): Promise<void> {
  if (conn.dialect === "sqlite") conn.client.close();
  else await conn.pool.end();
}

/** Closes the cached connection (tests switching databases, graceful shutdown). */
export async function closeDb(): Promise<void> {
  const conn = g.__returnsDeskDb;
  g.__returnsDeskDb = undefined;
  if (conn) await closeConnection(conn);
}

/** The first row of a result, or null (what SQLite's .get() gave, on either dialect). */
export const first = <T>(rows: T[]): T | null => rows[0] ?? null;

/** The one row an INSERT ... RETURNING gave. */
export function one<T>(rows: T[]): T {
  if (rows.length !== 1) throw new Error(`expected one row, got ${rows.length}`);
  return rows[0] as T;
}

export { schema, sql };
