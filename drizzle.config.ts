import { defineConfig } from "drizzle-kit";
import { env } from "./lib/env";

// SQLite (the default). PostgreSQL has its own config: drizzle.pg.config.ts. `npm run
// db:generate` writes a migration for each dialect from its schema (db/schema/*.ts).
export default defineConfig({
  dialect: "sqlite",
  schema: "./db/schema/sqlite.ts",
  out: "./db/migrations/sqlite",
  dbCredentials: { url: env().DATABASE_PATH },
});
