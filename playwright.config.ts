import fs from "node:fs";
import { defineConfig, devices } from "@playwright/test";
// @ts-expect-error plain ESM helper shared with scripts
import * as e2eServers from "./tests/e2e/server.mjs";

const { freePort, throwawayDir, postgresDatabases } = e2eServers;
const databaseUrl = e2eServers.databaseUrl as (dataDir: string, server: string) => string | null;
const databaseEnv = e2eServers.databaseEnv as (
  dataDir: string,
  server: string,
) => Record<string, string>;

// Reuse the values chosen by the first evaluation: Playwright loads this file in every worker.
process.env.E2E_PORT ??= String(freePort());
process.env.E2E_DATA_DIR ??= throwawayDir("e2e");
process.env.E2E_PORT_STRICT ??= String(freePort());
process.env.E2E_PORT_NO_MODEL ??= String(freePort());
process.env.E2E_PORT_DEAD ??= String(freePort());
// The store page of tests/e2e/embed.spec.ts: another site (127.0.0.1) than the app's, which that
// spec reaches as localhost, so the chat's iframe really is third-party.
process.env.E2E_PORT_STORE ??= String(freePort());
const port = Number(process.env.E2E_PORT);
const dataDir = process.env.E2E_DATA_DIR as string;
export const baseURL = `http://127.0.0.1:${port}`;
/** The store's signing secret in the e2e run (tests/e2e/servers.ts reads the same one). */
const E2E_EMBED_SECRET = e2eServers.EMBED_SECRET as string;

// E2E_DATABASE_URL: the same suite on PostgreSQL (tests/e2e/server.mjs). The workers seed test
// customers through db/ (tests/e2e/fixtures.ts), which picks its dialect when first imported, so
// they must inherit a PostgreSQL DATABASE_URL too. Created once per run (the config is loaded
// again in each worker, with E2E_DB_CREATED set).
if (process.env.E2E_DATABASE_URL) {
  if (!process.env.E2E_DB_CREATED) {
    postgresDatabases(dataDir, true);
    process.env.E2E_DB_CREATED = "1";
  }
  process.env.DATABASE_URL = databaseUrl(dataDir, "main") as string;
  process.env.BETTER_AUTH_SECRET ??= "e2e-secret-e2e-secret-e2e-secret-0123456";
}

const systemChromium = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const launchOptions = fs.existsSync(systemChromium)
  ? {
      executablePath: systemChromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    }
  : {};

export default defineConfig({
  // E2E_DATABASE_URL only: drops the run's PostgreSQL databases.
  globalTeardown: "./tests/e2e/teardown.mjs",
  testDir: "tests/e2e",
  // Its own folder on PostgreSQL: npm test runs both at once, and each run empties its folder.
  outputDir: process.env.E2E_DATABASE_URL ? "test-results/e2e-postgres" : "test-results/e2e",
  // Every test brings its own customer and orders (tests/e2e/fixtures.ts), so tests may run in
  // any order and side by side: `E2E_WORKERS=2` (or --workers) spreads them over two browsers.
  // One is the default: on a shared 2-core machine three servers and two browsers starve each
  // other into timeouts.
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS) || 1,
  // CI gets one retry: the machines are shared and noisy, and one slow moment in a browser must not
  // sink a whole landing. A behaviour that is broken fails both tries; a test that needed the
  // second is printed as "flaky" in the log, to be looked at, not forgotten.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI
    ? [["list"]]
    : [
        ["list"],
        [
          "html",
          {
            open: "never",
            outputFolder: process.env.E2E_DATABASE_URL
              ? "playwright-report-postgres"
              : "playwright-report",
          },
        ],
      ],
  timeout: 60_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions,
  },
  projects: [
    {
      name: "chromium",
      testDir: "tests/e2e",
      use: { ...devices["Desktop Chrome"], launchOptions },
    },
    // The README's screenshots (tests/screenshots): they rewrite docs/, so they exist only when
    // asked for with `npm run screenshots` (scripts/screenshots.mjs), never in `npm test`.
    ...(process.env.DOCS_SCREENSHOTS === "1"
      ? [
          {
            name: "screenshots",
            testDir: "tests/screenshots",
            use: { ...devices["Desktop Chrome"], launchOptions },
          },
        ]
      : []),
  ],
  webServer: [
    {
      // The production build, started exactly as `npm start` does, on a throwaway database.
      command: `node scripts/ensure-build.mjs && node scripts/serve.mjs -p ${port} -H 127.0.0.1`,
      url: `${baseURL}/api/health`,
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: "1",
        ...databaseEnv(dataDir, "main"),
        SEED_DEMO: "1",
        MODEL_PROVIDER: "offline",
        OPENAI_API_KEY: "",
        CHAT_RATE_LIMIT_PER_MINUTE: "1000",
        AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE: "1000",
        // The embedded chat (tests/e2e/embed.spec.ts, tests/e2e/servers.ts).
        EMBED_ALLOWED_ORIGINS: `http://127.0.0.1:${process.env.E2E_PORT_STORE}`,
        EMBED_JWT_SECRET: E2E_EMBED_SECRET,
        EMBED_AUDIENCE: `http://localhost:${port}`,
        // Where a guest's code lands without SMTP (tests/e2e/guest-mail.ts reads it there).
        MAIL_DIR: `${dataDir}/mail`,
      },
    },
    // Two more servers on the same build, for tests/e2e/chat-strict.spec.ts and
    // chat-errors.spec.ts (see tests/e2e/servers.ts): proposals that expire in 10 s and a low
    // message rate limit; and an OpenAI-compatible provider that refuses connections, so a turn
    // fails the way a provider outage does.
    extraServer(Number(process.env.E2E_PORT_STRICT), databaseEnv(dataDir, "strict"), {
      // Long enough that a loaded machine still shows the open card before it expires.
      PENDING_ACTION_TTL_SECONDS: "10",
      CHAT_RATE_LIMIT_PER_MINUTE: "3",
      // A candidate for the staff page's rollback (tests/e2e/words.spec.ts): a canary that
      // answers no turn (share 0), so the chats here are the live model's as before.
      CANDIDATE_MODE: "canary",
      CANDIDATE_SHARE: "0",
    }),
    extraServer(Number(process.env.E2E_PORT_NO_MODEL), databaseEnv(dataDir, "no-model"), {
      MODEL_PROVIDER: "openai",
      OPENAI_API_KEY: "e2e-unused-key",
      // Nothing listens on this port.
      OPENAI_BASE_URL: `http://127.0.0.1:${process.env.E2E_PORT_DEAD}/v1`,
    }),
  ],
});

/** Starts after the main server (webServers start in order), so the build already exists. */
function extraServer(p: number, database: Record<string, string>, env: Record<string, string>) {
  return {
    command: `node scripts/serve.mjs -p ${p} -H 127.0.0.1`,
    url: `http://127.0.0.1:${p}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "pipe" as const,
    stderr: "pipe" as const,
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: "1",
      ...database,
      SEED_DEMO: "1",
      MODEL_PROVIDER: "offline",
      OPENAI_API_KEY: "",
      CHAT_RATE_LIMIT_PER_MINUTE: "1000",
      AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE: "1000",
      ...env,
    },
  };
}
