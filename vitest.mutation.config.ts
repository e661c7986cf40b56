import { defineConfig } from "vitest/config";
import { keptThreads } from "./tests/helpers/kept-thread-pool";
import { ShortestFirstSequencer } from "./tests/helpers/shortest-first-sequencer";
import base, { ISOLATED } from "./vitest.config";

/**
 * The tests `npm run mutation` (Stryker, stryker.config.mjs) runs against each mutant: every unit
 * and integration suite that runs in-process, on SQLite.
 *
 * Left out: the system and e2e suites (a production build per mutant is not affordable), the
 * suites that start worker processes (racing confirms and approvals, crash recovery, the write
 * lock's clock, the harder faults, the receive race, the users CLI, the secret's start-up check:
 * those processes run the code without the mutant switched on, so they could only blur the score,
 * and each of them costs its processes' start-up for every mutant its in-process part reaches),
 * and the catalogue test that reads the source text (Stryker instruments it).
 *
 * What a mutant costs is mostly importing the module graph, not running tests, so the files
 * share one: `isolate: false`. Each file still starts from the same environment
 * (tests/helpers/restore-env.ts) and opens its own database. A file that holds state the others
 * would see runs isolated instead: a `vi.mock` of a module the others import, the global tracer,
 * and the canary's per-process cache of its rollout row (kept per fingerprint, not per database,
 * so a second test database would not have the row): ISOLATED, the same list as `npm test`'s.
 * docs/mutation.md has the check that the shared files pass in any order.
 */

/**
 * Each run's worker thread is kept for the next (tests/helpers/kept-thread-pool.ts): a mutant then
 * costs its tests, not a new import of the graph. Set through a plugin because Stryker's vitest
 * runner passes `pool: "threads"` on the command line, which overrides a project's own `pool`.
 * `MUTATION_FRESH_THREADS=1` runs with vitest's plain threads, as the comparison in
 * docs/mutation.md does.
 */
const keptThreadsPlugin = {
  name: "returns-desk:kept-threads",
  config: () => ({ test: { pool: keptThreads({ runsPerThread: 50 }) } }),
};

/**
 * A mutant's covering files run shortest first (tests/helpers/shortest-first-sequencer.ts), so the
 * quick test that kills it runs before the slow ones that merely reach its line.
 * `MUTATION_VITEST_ORDER=1` keeps vitest's own order (longest first), as the comparison in
 * docs/mutation.md does.
 */
const sequence = process.env.MUTATION_VITEST_ORDER ? {} : { sequencer: ShortestFirstSequencer };

const shared = {
  environment: "node" as const,
  hookTimeout: 60_000,
  testTimeout: 30_000,
  setupFiles: ["tests/helpers/restore-env.ts", "tests/helpers/setup.ts"],
  globalSetup: ["tests/helpers/global-setup.ts"],
};

export default defineConfig({
  resolve: base.resolve,
  test: {
    sequence,
    projects: [
      {
        extends: true,
        plugins: process.env.MUTATION_FRESH_THREADS ? [] : [keptThreadsPlugin],
        test: {
          ...shared,
          name: "mutation",
          isolate: false,
          include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
          exclude: [
            "**/node_modules/**",
            ...ISOLATED,
            "tests/integration/action-core/concurrency.test.ts",
            "tests/integration/approvals/concurrency.test.ts",
            "tests/integration/action-core/write-tools.test.ts",
            "tests/integration/action-core/confirm-clock.test.ts",
            "tests/integration/harder-faults.test.ts",
            "tests/integration/receive-race.test.ts",
            "tests/integration/users-cli.test.ts",
            "tests/integration/auth-secret.test.ts",
            // Reads the source text, which Stryker has instrumented.
            "tests/unit/i18n-catalogues.test.ts",
            // Start a vitest of their own to test this set's pool and order; they reach no code of
            // the scope.
            "tests/unit/kept-thread-pool.test.ts",
            "tests/unit/shortest-first-sequencer.test.ts",
          ],
        },
      },
      { extends: true, test: { ...shared, name: "mutation-isolated", include: ISOLATED } },
    ],
  },
});
