import { defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config";

/**
 * The tests `npm run mutation` (Stryker, stryker.config.mjs) runs against each mutant: the unit
 * tests and the action core's integration suites on SQLite, in-process. Left out: the system and e2e suites (a production
 * build per mutant is not affordable) and the tests that start worker processes (racing confirms,
 * crash recovery, the write lock's clock), because those processes would run the code without the
 * mutant switched on and could only blur the score.
 */
export default mergeConfig(
  { ...base, test: { ...base.test, projects: undefined } },
  defineConfig({
    test: {
      environment: "node",
      pool: "forks",
      hookTimeout: 60_000,
      testTimeout: 30_000,
      setupFiles: ["tests/helpers/setup.ts"],
      globalSetup: ["tests/helpers/global-setup.ts"],
      // The suites that pin the action core, the write tools and their queries down, and the unit
      // tests. The other integration suites reach the same code through sign-ins and chat turns,
      // each file with its own database: run per mutant, that made a mutant cost ~20 s here.
      include: [
        "tests/unit/**/*.test.ts",
        "tests/integration/action-core/*.test.ts",
        "tests/integration/cancel-order.test.ts",
        "tests/integration/unique-violation.test.ts",
        // The effects relay, mail, receipts and the work queue; approvals and the hand-off;
        // sign-in and its limits.
        "tests/integration/effects.test.ts",
        "tests/integration/mail-and-receive.test.ts",
        "tests/integration/refund-note.test.ts",
        "tests/integration/approvals/core.test.ts",
        "tests/integration/approvals/routes.test.ts",
        "tests/integration/handoff.test.ts",
        "tests/integration/change-delivery-address.test.ts",
        "tests/integration/free-text.test.ts",
        "tests/integration/decision-rate-limits.test.ts",
        "tests/integration/auth-rate-limit.test.ts",
        "tests/integration/password-hash.test.ts",
      ],
      exclude: [
        "**/node_modules/**",
        "tests/integration/action-core/concurrency.test.ts",
        "tests/integration/action-core/write-tools.test.ts",
        "tests/integration/action-core/confirm-clock.test.ts",
        // Reads the source text, which Stryker has instrumented.
        "tests/unit/i18n-catalogues.test.ts",
      ],
    },
  }),
);
