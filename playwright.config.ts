import fs from "node:fs";
import { defineConfig, devices } from "@playwright/test";
// @ts-expect-error plain ESM helper shared with scripts
import { databasePath, freePort, throwawayDir } from "./tests/e2e/server.mjs";

// Reuse the values chosen by the first evaluation: Playwright loads this file in every worker.
process.env.E2E_PORT ??= String(freePort());
process.env.E2E_DATA_DIR ??= throwawayDir("e2e");
process.env.E2E_PORT_STRICT ??= String(freePort());
process.env.E2E_PORT_NO_MODEL ??= String(freePort());
process.env.E2E_PORT_DEAD ??= String(freePort());
const port = Number(process.env.E2E_PORT);
const dataDir = process.env.E2E_DATA_DIR as string;
export const baseURL = `http://127.0.0.1:${port}`;

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
  testDir: "tests/e2e",
  outputDir: "test-results/e2e",
  // Every test brings its own customer and orders (tests/e2e/fixtures.ts), so tests may run in
  // any order and side by side: `E2E_WORKERS=2` (or --workers) spreads them over two browsers.
  // One is the default: on a shared 2-core machine three servers and two browsers starve each
  // other into timeouts.
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS) || 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI
    ? [["list"]]
    : [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]],
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
        DATABASE_PATH: databasePath(dataDir, "main"),
        SEED_DEMO: "1",
        MODEL_PROVIDER: "offline",
        OPENAI_API_KEY: "",
        CHAT_RATE_LIMIT_PER_MINUTE: "1000",
        AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE: "1000",
      },
    },
    // Two more servers on the same build, for tests/e2e/chat-strict.spec.ts and
    // chat-errors.spec.ts (see tests/e2e/servers.ts): proposals that expire in 10 s and a low
    // message rate limit; and an OpenAI-compatible provider that refuses connections, so a turn
    // fails the way a provider outage does.
    extraServer(Number(process.env.E2E_PORT_STRICT), databasePath(dataDir, "strict"), {
      // Long enough that a loaded machine still shows the open card before it expires.
      PENDING_ACTION_TTL_SECONDS: "10",
      CHAT_RATE_LIMIT_PER_MINUTE: "3",
    }),
    extraServer(Number(process.env.E2E_PORT_NO_MODEL), databasePath(dataDir, "no-model"), {
      MODEL_PROVIDER: "openai",
      OPENAI_API_KEY: "e2e-unused-key",
      // Nothing listens on this port.
      OPENAI_BASE_URL: `http://127.0.0.1:${process.env.E2E_PORT_DEAD}/v1`,
    }),
  ],
});

/** Starts after the main server (webServers start in order), so the build already exists. */
function extraServer(p: number, database: string, env: Record<string, string>) {
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
      DATABASE_PATH: database,
      SEED_DEMO: "1",
      MODEL_PROVIDER: "offline",
      OPENAI_API_KEY: "",
      CHAT_RATE_LIMIT_PER_MINUTE: "1000",
      AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE: "1000",
      ...env,
    },
  };
}
