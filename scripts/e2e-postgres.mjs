// `npm run test:e2e:postgres`: the browser suite again, with every e2e server on PostgreSQL
// (E2E_DATABASE_URL; playwright.config.ts creates one database per server on that server and
// tests/e2e/teardown.mjs drops them). It uses TEST_DATABASE_URL, as the vitest "postgres" project
// does. Without it the run is skipped with a notice; in CI (CI=true) that is an error, so CI can
// never pass without the PostgreSQL suites.
import { spawnSync } from "node:child_process";

const url = process.env.TEST_DATABASE_URL?.trim();
if (!url) {
  const why =
    "TEST_DATABASE_URL is not set, so the e2e suite on PostgreSQL is skipped. To run it, point it at a PostgreSQL 15+ server where this user may CREATE DATABASE, e.g. TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run test:e2e:postgres.";
  if (process.env.CI === "true") {
    console.error(`CI=true: ${why}`);
    process.exit(1);
  }
  console.warn(`\n[returns-desk] NOTICE: ${why}\n`);
  process.exit(0);
}
const run = spawnSync("npx", ["playwright", "test", ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, E2E_DATABASE_URL: url },
});
process.exit(run.status ?? 1);
