import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "tests/stubs/server-only.ts"),
    },
  },
  test: {
    include: [
      "tests/unit/**/*.test.ts",
      "tests/integration/**/*.test.ts",
      "tests/system/**/*.test.ts",
    ],
    environment: "node",
    pool: "forks",
    // Each file gets its own SQLite file (tests/helpers/db.ts); a generous hook timeout covers
    // password hashing on a busy shared machine, not slowness in the product.
    hookTimeout: 60_000,
    testTimeout: 30_000,
    setupFiles: ["tests/helpers/setup.ts"],
  },
});
