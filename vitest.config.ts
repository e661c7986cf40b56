import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * Two projects. "sqlite" is the whole suite on the embedded default. "postgres" runs the suites
 * that prove the action core's guarantees, the audit chart's counters (and the multi-instance system test) again on a real
 * PostgreSQL: each test file creates its own databases on TEST_DATABASE_URL's server and drops
 * them afterwards (harness/db.ts). Without TEST_DATABASE_URL the postgres project is left
 * out with a notice; in CI (CI=true) that is an error, so CI can never pass without them.
 */
const POSTGRES_SUITES = [
  "tests/integration/action-core/{cancel-order-policy,concurrency,confirm,executor,lifecycle,propose,refusals,replan-outcomes,write-tools}.test.ts",
  // Revisions and four-eyes approval, racing approvals and the sweep.
  "tests/integration/approvals/*.test.ts",
  "tests/integration/audit-status-counts.test.ts",
  // The audit's keyset pages against a plain sort, on both dialects' row-value comparisons.
  "tests/integration/audit-pages.test.ts",
  "tests/integration/metrics-counters.test.ts",
  "tests/integration/rate-windows.test.ts",
  "tests/integration/ledger-and-webhook-providers.test.ts",
  "tests/integration/staff-returns.test.ts",
  "tests/integration/auth-rate-limit.test.ts",
  // The session cookie's attributes and lifetime, better-auth's origin check: its rows on both.
  "tests/integration/auth-handler.test.ts",
  "tests/integration/demo-seed.test.ts",
  "tests/integration/test-database.test.ts",
  "tests/integration/embed-session.test.ts",
  // The same-origin check (scheme, host and port) on the state changes it guards.
  "tests/integration/origin-and-streams.test.ts",
  "tests/integration/embed-visitor.test.ts",
  "tests/integration/guest-verification.test.ts",
  "tests/integration/guest-prune.test.ts",
  "tests/integration/embed-accounts.test.ts",
  // One account per normalised email: the index, and the migration that settles look-alikes.
  "tests/integration/email-identity.test.ts",
  "tests/integration/cancel-order.test.ts",
  "tests/integration/change-delivery-address.test.ts",
  // Returns of named lines, exchanges, and the last unit of a size raced across processes.
  "tests/integration/items-and-exchanges.test.ts",
  "tests/integration/model-flood.test.ts",
  "tests/integration/nul-ids.test.ts",
  // Free text from a revision, a staff reason, a model: no NUL reaches PostgreSQL.
  "tests/integration/free-text.test.ts",
  "tests/integration/decision-rate-limits.test.ts",
  "tests/integration/effects.test.ts",
  // When the relay wakes next: the earliest pending retry, on both dialects' ordering.
  "tests/integration/effects-due.test.ts",
  // The integration canary: one at a time across relays on PostgreSQL's concurrent transactions.
  "tests/integration/effects-canary.test.ts",
  // Its queries one by one: the slot, the claim by id, the next look.
  "tests/integration/effect-canary-queries.test.ts",
  // The same canary for the warehouse's webhook, whose 2xx is its confirmation.
  "tests/integration/warehouse-canary.test.ts",
  // The protocol against its model (docs/formal.md), and its races.
  "tests/integration/model-based.test.ts",
  "tests/integration/mail-and-receive.test.ts",
  "tests/integration/receive-race.test.ts",
  // Exactly once under a killed lookup, forgotten keys, a dropped SMTP DATA, a cut connection.
  "tests/integration/harder-faults.test.ts",
  "tests/integration/effect-metrics.test.ts",
  "tests/integration/refund-note.test.ts",
  // The fresh plan after a store's refusal: once, however its attempts race.
  "tests/integration/replan.test.ts",
  "tests/integration/turn-lock.test.ts",
  "tests/integration/handoff.test.ts",
  "tests/integration/handoff-records.test.ts",
  "tests/integration/handoff-model.test.ts",
  "tests/integration/unique-violation.test.ts",
  // Shadow mode: the dry run stores nothing, on both databases.
  "tests/integration/candidate-shadow.test.ts",
  // Probes from live load: profiles and probe sets stored, no customer text in either.
  "tests/integration/probes.test.ts",
  // A probe set run dry through both profiles: nothing stored, nothing sent.
  "tests/integration/probes-shadow.test.ts",
  // Canary, rollback and the drift alert: state in the database, on both databases.
  "tests/integration/candidate-canary.test.ts",
  "tests/system/multi-instance.test.ts",
  // The hostile suites: a PostgreSQL error (a NUL in an id, in a model's text) must be a 404 or
  // a stripped character there too, never a 500.
  "tests/system/hostile.test.ts",
  "tests/system/hostile-model.test.ts",
  "tests/system/effects-multi-instance.test.ts",
];

const pgUrl = process.env.TEST_DATABASE_URL?.trim();
if (!pgUrl) {
  const why =
    "TEST_DATABASE_URL is not set, so the PostgreSQL suites (the action core, cancel_order, the turn lock, the hostile suites and the multi-instance test on PostgreSQL) are skipped. To run them, point it at a PostgreSQL 15+ server where this user may CREATE DATABASE, e.g. TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run test:unit (each run creates and drops its own databases).";
  if (process.env.CI === "true") throw new Error(`CI=true: ${why}`);
  console.warn(`\n[returns-desk] NOTICE: ${why}\n`);
}

/**
 * Files that hold state the others in their process would see, so they get a process (and module
 * graph) of their own: a `vi.mock` of a module the others import (password-limit), the global
 * tracer (the two telemetry suites), and the canary's per-process cache of its rollout rows, kept
 * by fingerprint and not by database (candidate-canary). The mutation run keeps the same list
 * (vitest.mutation.config.ts, docs/mutation.md has how the shared files were checked in
 * shuffled orders).
 */
export const ISOLATED = [
  "tests/unit/password-limit.test.ts",
  "tests/integration/telemetry.test.ts",
  "tests/integration/telemetry-off.test.ts",
  "tests/integration/candidate-canary.test.ts",
];

const shared = {
  environment: "node" as const,
  pool: "forks" as const,
  // Each file gets its own database (harness/db.ts); a generous hook timeout covers
  // password hashing on a busy shared machine, not slowness in the product.
  hookTimeout: 60_000,
  testTimeout: 30_000,
  // restore-env first: whatever a file put into process.env is undone when it ends, so the next
  // file in the same process starts from the same environment as it would alone.
  setupFiles: ["tests/helpers/restore-env.ts", "tests/helpers/setup.ts"],
  // The run's template databases, copied for every test (harness/db-template.ts).
  globalSetup: ["tests/helpers/global-setup.ts"],
  // vi.stubGlobal is undone after each test, so no stub outlives its file in a shared process.
  unstubGlobals: true,
};

/**
 * On SQLite most files share their worker process and module graph (`isolate: false`): importing
 * the graph (Next's route handlers, drizzle, better-auth) once per worker instead of once per file
 * is most of what isolation cost. The ISOLATED files run in a project of their own with the
 * default isolation: `--project 'sqlite*'` runs both halves. The PostgreSQL files stay isolated.
 */
const SQLITE_ONLY_EXCLUDED = [
  // The multi-instance tests need PostgreSQL (several servers on one database).
  "tests/system/multi-instance.test.ts",
  "tests/system/effects-multi-instance.test.ts",
];

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "tests/stubs/server-only.ts"),
    },
  },
  test: {
    // One worker per core, and at least two. Vitest's own default for a run is one fewer than the
    // cores, which on the 2-core machines this runs on is a single worker: every file then waited
    // for the one before, although much of a file's time is spent waiting on the servers, worker
    // processes and PostgreSQL it starts, not on the CPU.
    maxWorkers: Math.max(2, os.availableParallelism()),
    projects: [
      {
        extends: true,
        test: {
          ...shared,
          name: "sqlite",
          isolate: false,
          include: [
            "tests/unit/**/*.test.ts",
            "tests/integration/**/*.test.ts",
            "tests/system/**/*.test.ts",
          ],
          exclude: [...SQLITE_ONLY_EXCLUDED, ...ISOLATED, "**/node_modules/**"],
        },
      },
      {
        extends: true,
        test: { ...shared, name: "sqlite-isolated", include: ISOLATED },
      },
      ...(pgUrl
        ? [
            {
              extends: true as const,
              test: {
                ...shared,
                // Each file isolated here. Tried shared on a loaded machine, four files' clean-up
                // (closing the pool and dropping their databases) hung until the 60 s hook
                // timeout, and a later file then saw state that was not its own; isolated, each
                // passes. Why the clean-up hung is not yet known.
                name: "postgres",
                include: POSTGRES_SUITES,
                env: { TEST_DIALECT: "postgres", TEST_DATABASE_URL: pgUrl },
              },
            },
          ]
        : []),
    ],
  },
});
