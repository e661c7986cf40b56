/**
 * The database's own configuration: which database, how many connections, whether to seed the
 * demo store. Its variables are declared here, once, because db/ sits below lib/ and imports
 * nothing from it; lib/env.ts spreads `databaseEnvShape` into the whole configuration schema, so
 * a wrong value still stops the process at start with the variable's name.
 */
import { z } from "zod";

export const emptyToUndefined = (v: unknown) =>
  typeof v === "string" && v.trim() === "" ? undefined : v;

export const databaseEnvShape = {
  DATABASE_PATH: z.preprocess(emptyToUndefined, z.string().default("./data/app.db")),
  // Set to a postgres:// URL: PostgreSQL (several instances on one database) instead of the
  // SQLite file at DATABASE_PATH. SSL and other options go in the URL (?sslmode=verify-full).
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//i, "must be a postgres:// or postgresql:// URL")
      .optional(),
  ),
  // PostgreSQL connections per instance; instances x this must stay under the server's limit.
  DATABASE_POOL_SIZE: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(1000).default(10),
  ),
  // Unset: the demo store (with its published passwords) on SQLite only; 1 also on PostgreSQL.
  SEED_DEMO: z.preprocess(emptyToUndefined, z.enum(["0", "1"]).optional()),
};

/**
 * The demo is the SQLite default only: a PostgreSQL deployment is a real one, and the demo's
 * staff account has a published password. There it takes SEED_DEMO=1.
 */
export const seedDemoDefault = (e: { SEED_DEMO?: "0" | "1"; DATABASE_URL?: string }) =>
  e.SEED_DEMO ?? (e.DATABASE_URL ? "0" : "1");

const schema = z
  .object(databaseEnvShape)
  .transform((e) => ({ ...e, SEED_DEMO: seedDemoDefault(e) }));

export type DatabaseConfig = z.infer<typeof schema>;

const KEYS = Object.keys(databaseEnvShape) as (keyof typeof databaseEnvShape)[];
let cached: { raw: string; config: DatabaseConfig } | undefined;

/**
 * The database variables of `source` (the process environment by default), parsed. Kept while
 * they are unchanged, so tests that point DATABASE_PATH at another file are followed without a
 * reset, and a query does not parse anything.
 */
export function databaseConfig(
  source: Record<string, string | undefined> = process.env,
): DatabaseConfig {
  const raw = KEYS.map((k) => source[k] ?? "\u0000").join("\u0001");
  if (cached?.raw === raw) return cached.config;
  const result = schema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".") || "(env)"}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  cached = { raw, config: result.data };
  return result.data;
}
