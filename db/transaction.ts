/**
 * Transactions on either dialect. Free of "server-only" (like db/index.ts) so the seed, which the
 * Playwright fixtures run outside Next, can use it; app code imports it as db/queries/tx.ts.
 */
import { getConnection, getDb } from "./index";
import { activeTx, runInTx, type TxContext } from "./tx-context";

/**
 * Runs `fn` in one write transaction; every db/queries call made inside belongs to it (found
 * through db/tx-context.ts), and a call nested in an open transaction becomes a savepoint.
 * A throw rolls everything back.
 *
 * SQLite: BEGIN IMMEDIATE, so writers in other processes queue on the busy timeout instead of
 * failing later with SQLITE_BUSY on lock upgrade; within the process the connection's mutex
 * keeps every other statement (other requests, better-auth) out until COMMIT.
 * PostgreSQL: a transaction on one pooled client at READ COMMITTED. Our races are decided by
 * conditional updates (`... WHERE status = 'pending'`), which re-check the row after waiting for
 * a concurrent writer, and by UNIQUE keys; a serialization failure or deadlock (40001, 40P01)
 * retries `fn` from the start, so `fn` must only touch the database.
 */
export async function writeTransaction<T>(fn: () => Promise<T>): Promise<T> {
  return transaction(fn, "write");
}

/**
 * Several reads that must see one consistent snapshot (a deferred BEGIN on SQLite, REPEATABLE
 * READ READ ONLY on PostgreSQL).
 */
export async function readTransaction<T>(fn: () => Promise<T>): Promise<T> {
  return transaction(fn, "read");
}

const RETRY_SQLSTATES = new Set(["40001", "40P01"]);
const MAX_ATTEMPTS = 5;

async function transaction<T>(fn: () => Promise<T>, kind: "write" | "read"): Promise<T> {
  const conn = getConnection();
  const outer = activeTx();
  if (outer && outer.conn === conn) return savepoint(outer, fn);
  if (conn.dialect === "sqlite") {
    const client = conn.client;
    return conn.mutex.run(async () => {
      client.prepare(kind === "write" ? "BEGIN IMMEDIATE" : "BEGIN").run();
      const ctx: TxContext = { conn, open: true, depth: 0 };
      try {
        const result = await runInTx(ctx, fn);
        client.prepare("COMMIT").run();
        return result;
      } catch (err) {
        if (client.inTransaction) client.prepare("ROLLBACK").run();
        throw err;
      } finally {
        ctx.open = false;
      }
    });
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await getDb().transaction(
        async (tx) => {
          const ctx: TxContext = { conn, db: tx as never, open: true, depth: 0 };
          try {
            return await runInTx(ctx, fn);
          } finally {
            ctx.open = false;
          }
        },
        (kind === "read"
          ? { isolationLevel: "repeatable read", accessMode: "read only" }
          : undefined) as never,
      );
    } catch (err) {
      if (attempt >= MAX_ATTEMPTS || !RETRY_SQLSTATES.has(sqlState(err) ?? "")) throw err;
    }
  }
}

async function savepoint<T>(outer: TxContext, fn: () => Promise<T>): Promise<T> {
  const depth = outer.depth + 1;
  if (outer.conn.dialect === "postgres") {
    // drizzle's nested transaction is a SAVEPOINT on the same client.
    return outer.db!.transaction(async (tx) => {
      const ctx: TxContext = { conn: outer.conn, db: tx as never, open: true, depth };
      try {
        return await runInTx(ctx, fn);
      } finally {
        ctx.open = false;
      }
    });
  }
  const client = outer.conn.client;
  const name = `sp${depth}`;
  client.prepare(`SAVEPOINT ${name}`).run();
  const ctx: TxContext = { conn: outer.conn, open: true, depth };
  try {
    const result = await runInTx(ctx, fn);
    client.prepare(`RELEASE ${name}`).run();
    return result;
  } catch (err) {
    client.prepare(`ROLLBACK TO ${name}`).run();
    client.prepare(`RELEASE ${name}`).run();
    throw err;
  } finally {
    ctx.open = false;
  }
}

/** The SQLSTATE of a PostgreSQL error, also when drizzle wrapped it (DrizzleQueryError.cause). */
export function sqlState(err: unknown): string | undefined {
  for (
    let e = err, i = 0;
    e && typeof e === "object" && i < 4;
    e = (e as { cause?: unknown }).cause, i++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

/**
 * A UNIQUE or PRIMARY KEY violation, on either dialect: SQLite's SQLITE_CONSTRAINT_UNIQUE /
 * _PRIMARYKEY, PostgreSQL's SQLSTATE 23505.
 */
export function isUniqueViolation(err: unknown): boolean {
  const code = sqlState(err);
  return (
    code === "23505" ||
    code === "SQLITE_CONSTRAINT_UNIQUE" ||
    code === "SQLITE_CONSTRAINT_PRIMARYKEY"
  );
}

/** SQLite's write lock did not come within the busy timeout. */
export function isBusy(err: unknown): boolean {
  return sqlState(err)?.startsWith("SQLITE_BUSY") ?? false;
}

/** Changes made on this SQLite connection since it opened (tests prove plan() writes nothing). */
export function totalChanges(): number {
  const conn = getConnection();
  if (conn.dialect !== "sqlite") throw new Error("totalChanges() is SQLite-only");
  const row = conn.client.prepare("select total_changes() as n").get() as { n: number };
  return row.n;
}
