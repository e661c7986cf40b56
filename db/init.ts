/**
 * Brings the database to a usable state at server start: open + migrate, then the demo seed when
 * the database is empty and SEED_DEMO says so (db/config.ts: by default on SQLite only). Idempotent: a second start finds users and seeds
 * nothing. On PostgreSQL the whole of it runs under an advisory lock, so of several instances
 * starting at once one migrates and seeds while the others wait and then find it done.
 */
import { databaseConfig } from "./config";
import { type Db, getConnection, getDb, migratePostgres, withStartupLock } from "./index";
import { seedDemo } from "./seed";

export async function initDatabase(
  /**
   * The demo seed's clock (its times are relative to it). Tests' template databases pass the
   * instant they were made, so a copy can be moved to its own moment (harness/db.ts).
   */
  { now }: { now?: Date } = {},
): Promise<Db> {
  await withStartupLock(async () => {
    getConnection(); // SQLite migrates when the connection opens.
    await migratePostgres();
    if (databaseConfig().SEED_DEMO === "1") await seedDemo(now);
  });
  return getDb();
}
