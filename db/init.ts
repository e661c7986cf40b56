/**
 * Brings the database to a usable state at server start: open + migrate (getDb), then the
 * demo seed when the database is empty and SEED_DEMO is not 0. Idempotent: a second start
 * finds users and seeds nothing.
 */
import { env } from "../lib/env";
import { type Db, getDb } from "./index";
import { seedDemo } from "./seed";

export async function initDatabase(): Promise<Db> {
  const db = getDb();
  if (env().SEED_DEMO !== "0") await seedDemo(db);
  return db;
}
