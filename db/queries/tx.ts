import "server-only";
import { getDb } from "../index";

/**
 * Runs `fn` in one write transaction taken with BEGIN IMMEDIATE, so writers in other processes
 * queue on the busy timeout instead of failing later with SQLITE_BUSY on lock upgrade.
 * better-sqlite3 is synchronous on one connection, so every db/queries call made inside `fn`
 * belongs to this transaction; a nested call becomes a savepoint. `fn` must be synchronous
 * (better-sqlite3 refuses a function that returns a promise). A throw rolls everything back.
 */
export function writeTransaction<T>(fn: () => T extends Promise<unknown> ? never : T): T {
  return getDb().$client.transaction(fn).immediate();
}

/** Changes made on this connection since it opened (tests prove plan() writes nothing). */
export function totalChanges(): number {
  const row = getDb().$client.prepare("select total_changes() as n").get() as { n: number };
  return row.n;
}
