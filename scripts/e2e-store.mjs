// `npm run test:e2e:store`: the browser suite of a real Medusa store (tests/e2e-store/). Starts the
// demo store (scripts/store-medusa.mjs), seeds our demo accounts into a throwaway database and
// links Anna to her Medusa customer with `npm run users -- link`, as an operator would
// (docs/stores.md), then runs playwright.store.config.ts, whose server has STORE_BACKEND=medusa.
// The store is stopped and the database removed afterwards, whatever happened.
//
// If Medusa cannot start (no PostgreSQL, the install failed), the run is skipped with a notice;
// with CI=true that is a failure, so CI never passes without the store's browser suite.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { throwawayDir } from "../tests/e2e/server.mjs";

const root = path.resolve(import.meta.dirname, "..");
const medusaScript = path.join(root, "scripts", "store-medusa.mjs");
const started = Date.now();
const seconds = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;

const start = spawnSync(process.execPath, [medusaScript, "start"], {
  cwd: root,
  encoding: "utf8",
  stdio: ["ignore", "pipe", "inherit"],
  // The first start installs Medusa (about a minute), then migrates and seeds.
  timeout: 15 * 60_000,
});
let medusa;
try {
  medusa = JSON.parse(start.stdout.trim().split("\n").at(-1) ?? "");
} catch {}
if (start.status !== 0 || !medusa?.url) {
  spawnSync(process.execPath, [medusaScript, "stop"], { cwd: root, stdio: "inherit" });
  const why = `the demo Medusa store did not start (exit ${start.status ?? start.signal}; its log: stores/medusa/.medusa-server.log), so the store's e2e suite cannot run.`;
  if (process.env.CI === "true") {
    console.error(`CI=true: ${why}`);
    process.exit(1);
  }
  console.warn(`\n[returns-desk] NOTICE: ${why}\n`);
  process.exit(0);
}
console.log(`e2e-store: Medusa at ${medusa.url} after ${seconds()}`);

const dataDir = throwawayDir("e2e-store");
const appEnv = { ...process.env, DATABASE_PATH: path.join(dataDir, "app.db"), LOG_LEVEL: "warn" };
const npm = (args) => {
  const r = spawnSync("npm", ["run", "-s", ...args], { cwd: root, env: appEnv, stdio: "inherit" });
  if (r.status !== 0) throw new Error(`npm run ${args.join(" ")} failed (exit ${r.status})`);
};

let status = 1;
try {
  npm(["db:seed"]);
  // The demo seed links Anna to the built-in store's customer; she is Medusa's now.
  const anna = medusa.customers.find((c) => c.email === "anna@example.com");
  npm([
    "users",
    "--",
    "link",
    "--email",
    anna.email,
    "--store-customer",
    anna.storeCustomerId,
    "--replace",
  ]);
  console.log(`e2e-store: database seeded and Anna linked after ${seconds()}`);
  const run = spawnSync(
    "npx",
    ["playwright", "test", "-c", "playwright.store.config.ts", ...process.argv.slice(2)],
    {
      cwd: root,
      stdio: "inherit",
      env: {
        ...process.env,
        E2E_STORE_DATA_DIR: dataDir,
        E2E_MEDUSA: JSON.stringify(medusa),
      },
    },
  );
  status = run.status ?? 1;
} catch (err) {
  console.error(`e2e-store: ${err.message}`);
} finally {
  spawnSync(process.execPath, [medusaScript, "stop"], { cwd: root, stdio: "inherit" });
  fs.rmSync(dataDir, { recursive: true, force: true });
  console.log(`e2e-store: done in ${seconds()}`);
}
process.exit(status);
