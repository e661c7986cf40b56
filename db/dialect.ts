/**
 * Which database this process uses: PostgreSQL when DATABASE_URL is a postgres:// URL, otherwise
 * the embedded SQLite file at DATABASE_PATH. Read from the raw environment (lib/env.ts validates
 * the same variable) because db/schema picks its tables when it is first imported.
 */
export type Dialect = "sqlite" | "postgres";

export const isPostgresUrl = (url: string | undefined): url is string =>
  url !== undefined && /^postgres(ql)?:\/\//i.test(url.trim());

export function dialectFromEnv(source: Record<string, string | undefined> = process.env): Dialect {
  return isPostgresUrl(source.DATABASE_URL) ? "postgres" : "sqlite";
}
