// `npm run db:migrate`: apply committed migrations to DATABASE_URL's PostgreSQL database, or the
// SQLite file at DATABASE_PATH (the server also does this at start).
import { closeDb, getConnection, migratePostgres, withStartupLock } from "../db";
import { env } from "../lib/env";

await withStartupLock(async () => {
  getConnection();
  await migratePostgres();
});
await closeDb();
console.log(`Migrated ${env().DATABASE_URL ? "the PostgreSQL database" : env().DATABASE_PATH}`);
