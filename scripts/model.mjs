// npm run test:model -- --runs=N: the model-based tests (tests/integration/model-based.test.ts)
// with N generated step sequences instead of CI's bounded number, on SQLite, and on PostgreSQL
// too when TEST_DATABASE_URL is set. With --store, the store path's instead
// (tests/store/model-based.test.ts, against the demo Medusa store it starts and stops).
// Other arguments go to vitest as they are.
import { spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const runs = args.find((a) => a.startsWith("--runs="))?.slice("--runs=".length);
if (runs !== undefined && !/^[1-9]\d*$/.test(runs)) {
  console.error(`--runs takes a positive whole number, not "${runs}"`);
  process.exit(2);
}
const store = args.includes("--store");
const rest = args.filter((a) => !a.startsWith("--runs=") && a !== "--store");
const suite = store
  ? ["--config", "vitest.store.config.ts", "tests/store/model-based.test.ts"]
  : ["tests/integration/model-based.test.ts"];
const run = spawnSync(
  path.join(root, "node_modules", ".bin", "vitest"),
  ["run", ...suite, ...rest],
  {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, ...(runs ? { MODEL_RUNS: runs } : {}) },
  },
);
process.exit(run.status ?? 1);
