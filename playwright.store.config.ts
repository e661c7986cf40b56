import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
// @ts-expect-error plain ESM helper shared with scripts
import * as e2eServers from "./tests/e2e/server.mjs";

/**
 * The browser suite of a real Medusa store (tests/e2e-store/), run by `npm run test:e2e:store`
 * (scripts/e2e-store.mjs), which starts the demo store, seeds and links our accounts, and passes
 * the store (E2E_MEDUSA) and the database's folder (E2E_STORE_DATA_DIR) here. One server: the
 * same production build as tests/e2e, with STORE_BACKEND=medusa and the offline model.
 */
const medusa = process.env.E2E_MEDUSA;
const dataDir = process.env.E2E_STORE_DATA_DIR;
if (!medusa || !dataDir)
  throw new Error("E2E_MEDUSA is not set: run the store's e2e suite with npm run test:e2e:store");
const store = JSON.parse(medusa) as { url: string; apiKey: string };

// Chosen once: Playwright loads this file again in every worker.
process.env.E2E_STORE_PORT ??= String(e2eServers.freePort());
const port = Number(process.env.E2E_STORE_PORT);
const baseURL = `http://127.0.0.1:${port}`;

const chromium = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const launchOptions = {
  executablePath: chromium,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
};

export default defineConfig({
  testDir: "tests/e2e-store",
  outputDir: "test-results/e2e-store",
  // The tests change one store in turn (the staff test reads what the chat tests did).
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  reporter: [["list"]],
  timeout: 90_000,
  expect: { timeout: 20_000 },
  use: { baseURL, trace: "retain-on-failure", screenshot: "only-on-failure", launchOptions },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], launchOptions } }],
  webServer: {
    command: `node scripts/ensure-build.mjs && node scripts/serve.mjs -p ${port} -H 127.0.0.1`,
    url: `${baseURL}/api/health`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_PATH: path.join(dataDir, "app.db"),
      SEED_DEMO: "0",
      MODEL_PROVIDER: "offline",
      OPENAI_API_KEY: "",
      CHAT_RATE_LIMIT_PER_MINUTE: "1000",
      AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE: "1000",
      STORE_BACKEND: "medusa",
      MEDUSA_URL: store.url,
      MEDUSA_API_KEY: store.apiKey,
      // A shared machine: Medusa may be slow to answer while the browser and the build run.
      MEDUSA_TIMEOUT_MS: "10000",
      EFFECTS_LEASE_SECONDS: "120",
      EFFECTS_POLL_SECONDS: "1",
    },
  },
});
