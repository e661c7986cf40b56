/**
 * Which transaction the running code is in. A transaction's async function and everything it
 * awaits carry its context (AsyncLocalStorage), so every db/queries function called inside uses
 * the transaction without being passed it. `open` turns false at COMMIT/ROLLBACK: a promise
 * that outlives its transaction does not keep using it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Connection, Db } from "./index";

export type TxContext = {
  conn: Connection;
  /** PostgreSQL: the drizzle transaction (one pooled client). SQLite: unset (one connection). */
  db?: Db;
  open: boolean;
  depth: number;
};

// One store per process, not per module instance: Next.js bundles instrumentation and each route
// separately, so this module can be loaded more than once, while the connection (and the
// statement gate that asks "is this statement inside the open transaction?") is shared on
// globalThis. Two stores would make a route's transaction invisible to the gate: a deadlock.
const g = globalThis as unknown as { __returnsDeskTxStorage?: AsyncLocalStorage<TxContext> };
g.__returnsDeskTxStorage ??= new AsyncLocalStorage<TxContext>();
const storage = g.__returnsDeskTxStorage;

export function activeTx(): TxContext | undefined {
  const tx = storage.getStore();
  return tx?.open ? tx : undefined;
}

export function runInTx<T>(ctx: TxContext, fn: () => Promise<T>): Promise<T> {
  return storage.run(ctx, fn);
}

/**
 * A FIFO async mutex. SQLite's single connection can hold one transaction at a time, and a
 * statement issued while one is open would become part of it; so transactions hold this for
 * their whole length and lone statements take it for the instant they run.
 */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn);
    // The next holder waits for this one to finish, whether it succeeded or threw.
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
