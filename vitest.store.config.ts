import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * npm run test:store: the store-backed suites against a REAL Medusa server. The global setup
 * starts it with `npm run store:medusa -- start` (installing it the first time) and stops it at
 * the end, so the run is self-contained; it needs the machine's PostgreSQL (docs/stores.md).
 */
export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "tests/stubs/server-only.ts"),
    },
  },
  test: {
    name: "store",
    environment: "node",
    pool: "forks",
    include: ["tests/store/**/*.test.ts"],
    globalSetup: ["tests/store/global-setup.ts"],
    setupFiles: ["tests/helpers/setup.ts"],
    // One Medusa server for every file: the files must not race for its orders.
    fileParallelism: false,
    hookTimeout: 60_000,
    testTimeout: 60_000,
  },
});
