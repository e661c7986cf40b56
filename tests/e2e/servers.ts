/**
 * The e2e servers started by playwright.config.ts (same production build, own databases).
 * The config picks their ports once and leaves them in the environment the workers inherit.
 */
// @ts-expect-error plain ESM helper shared with playwright.config.ts
import { databasePath, databaseUrl, EMBED_SECRET, SERVERS } from "./server.mjs";

type ServerName = "main" | "strict" | "no-model";

function url(variable: string): string {
  const port = process.env[variable];
  if (!port) throw new Error(`${variable} is not set: run through playwright.config.ts`);
  return `http://127.0.0.1:${port}`;
}

/**
 * PENDING_ACTION_TTL_SECONDS=10 and CHAT_RATE_LIMIT_PER_MINUTE=3; a canary candidate at share 0
 * (no turn goes to it), for the candidate page's rollback.
 */
export const strictServerURL = url("E2E_PORT_STRICT");

/** MODEL_PROVIDER=openai with a base URL nobody listens on: every turn fails at the provider. */
export const noModelServerURL = url("E2E_PORT_NO_MODEL");

/**
 * The SQLite file, or with E2E_DATABASE_URL the PostgreSQL URL, of the server at `baseURL`
 * (where tests/e2e/fixtures.ts seeds test data).
 */
export function databaseOf(baseURL: string): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error("E2E_DATA_DIR is not set: run through playwright.config.ts");
  const servers = SERVERS as Record<ServerName, { portVar: string }>;
  for (const name of Object.keys(servers) as ServerName[]) {
    if (url(servers[name].portVar) === new URL(baseURL).origin)
      return (databaseUrl(dataDir, name) ?? databasePath(dataDir, name)) as string;
  }
  throw new Error(`no e2e server at ${baseURL}`);
}

/** The main server reached by name: another site than 127.0.0.1, where the store page is. */
export const appSiteURL = url("E2E_PORT").replace("127.0.0.1", "localhost");

/** Where tests/e2e/embed.spec.ts serves its store page (the one origin EMBED_ALLOWED_ORIGINS names). */
export const storePort = Number(process.env.E2E_PORT_STORE);

/** The main server's EMBED_JWT_SECRET. */
export const embedSecret: string = EMBED_SECRET;
