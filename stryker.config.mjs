// npm run mutation: Stryker's mutation testing over the action core, the tools and the queries
// (docs/mutation.md). Not part of npm test or CI: it takes long on a small machine. The tests it
// runs per mutant are vitest.mutation.config.ts's (unit and integration, SQLite).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts", related: false },
  mutate: [
    "lib/actions/**/*.ts",
    "lib/tools/**/*.ts",
    "!lib/tools/*/test-table.ts",
    "db/queries/**/*.ts",
  ],
  coverageAnalysis: "perTest",
  // A static mutant (a module-level constant) needs every test run again; on a 2-core machine
  // that is not affordable, so they are left out (Stryker reports them as ignored).
  ignoreStatic: true,
  concurrency: 1,
  // Only what changed since the last run is tested again (reports/ is not committed).
  incremental: true,
  incrementalFile: "reports/stryker-incremental.json",
  // event-recorder writes each mutant's result as it is tested, so a run stopped early still
  // leaves its figures (docs/mutation.md reads them).
  reporters: ["clear-text", "progress", "json", "event-recorder"],
  eventReporter: { baseDir: "reports/mutation/events" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  timeoutMS: 20_000,
  ignorePatterns: [
    ".next",
    ".next-*",
    "data",
    "reports",
    "test-results",
    "playwright-report",
    "bench/.out",
  ],
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
  disableTypeChecks: "{lib,db}/**/*.ts",
};
