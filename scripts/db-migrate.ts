// `npm run db:migrate`: apply committed migrations to DATABASE_PATH (the server also does this at start).
import { getDb } from "../db";
import { env } from "../lib/env";

getDb();
console.log(`Migrated ${env().DATABASE_PATH}`);
