// The layer rules of docs/architecture.md ("Where things live"), checked by `npm run lint`.
// app → components → lib → db: code only calls downwards. A rule names what is forbidden; the
// comment of each says why, and depcruise prints it with the offending import.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "components-not-to-app",
      comment: "components/ is drawn by app/'s pages; it must not reach back up into app/.",
      severity: "error",
      from: { path: "^components/" },
      to: { path: "^app/" },
    },
    {
      name: "lib-not-to-ui",
      comment: "lib/ holds the rules and is called by app/ and components/, never the other way.",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: "^(app|components)/" },
    },
    {
      name: "db-not-upward",
      comment:
        "db/ is the bottom layer: it imports nothing from lib/, components/ or app/ (configuration goes in as a parameter).",
      severity: "error",
      from: { path: "^db/" },
      to: { path: "^(lib|components|app)/" },
    },
    {
      name: "sql-only-in-db",
      comment:
        "SQL lives only in db/ (tables in db/schema, queries in db/queries): the product's other layers, tool folders included, never build a query themselves.",
      severity: "error",
      from: { path: "^(app|components|lib)/" },
      to: { path: "^node_modules/drizzle-orm/" },
    },
    {
      name: "product-not-to-tooling",
      comment:
        "The product (app, components, lib, db) never imports tests, eval, their harness, benchmarks, scripts or the CLI.",
      severity: "error",
      from: { path: "^(app|components|lib|db)/|^(proxy|instrumentation)\\.ts$" },
      to: { path: "^(tests|eval|harness|bench|scripts|cli)/" },
    },
    {
      name: "eval-not-to-tests",
      comment:
        "npm run eval stands on its own: it and the drivers it shares with the tests (harness/) do not import the test suite.",
      severity: "error",
      from: { path: "^(eval|harness)/" },
      to: { path: "^tests/" },
    },
    {
      name: "no-lib-folder-cycles",
      comment:
        "lib/'s folders form a hierarchy: two folders (or a longer ring of them) must not import each other.",
      severity: "error",
      scope: "folder",
      from: { path: "^lib/([^/]+)" },
      to: { path: "^lib/", pathNot: "^lib/$1(/|$)", circular: true },
    },
    {
      name: "no-lib-root-file-cycles",
      comment:
        "lib/'s own files (env.ts, log.ts, startup.ts...), which the folder rule sees as one folder 'lib', are in no cycle either.",
      severity: "error",
      from: { path: "^lib/[^/]+\\.tsx?$" },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: ["node_modules"] },
    exclude: {
      path: ["^\\.next", "^db/migrations/", "^\\.stryker-tmp/", "^reports/"],
    },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json", ".d.ts"],
    },
    skipAnalysisNotInRules: true,
  },
};
