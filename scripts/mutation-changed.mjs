// npm run test:mutation (part of npm test): Stryker on the safety-scope files a change touched,
// in incremental mode against the committed mutation/incremental.json, failing under 85 %
// (stryker.config.mjs's thresholds.break).
//
// - "A change": the files that differ between HEAD (and the working tree) and the base:
//   MUTATION_BASE if set, else the merge base with origin/main (or main), else HEAD~1.
// - Only files inside stryker.config.mjs's scope count; none touched: nothing to do (0 s).
// - Stryker's incremental mode reuses every result of mutation/incremental.json whose code and
//   covering tests are unchanged, so after `npm run test:mutation` has been run locally and the
//   file committed, CI re-tests nothing and only checks the score.
// - A time budget (MUTATION_BUDGET_SECONDS, default 420) keeps CI's run short: past it, Stryker is
//   stopped and the step fails, saying which files to run locally first.
// - The score judged is the changed files' own (scripts/mutation-score.mjs), not Stryker's exit
//   code, which judges every file in the incremental report.
// docs/mutation.md has the figures and the commands.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import strykerConfig from "../stryker.config.mjs";
import { changedFilesScore } from "./mutation-score.mjs";

const root = path.resolve(import.meta.dirname, "..");
const budget = Number(process.env.MUTATION_BUDGET_SECONDS ?? 420);
const SCOPE = [
  /^lib\/actions\/.+\.ts$/,
  /^lib\/effects\/.+\.tsx?$/,
  /^lib\/tools\/.+\.ts$/,
  /^lib\/chat\/handoff\/.+\.ts$/,
  /^lib\/store\/.+\.ts$/,
  /^lib\/embed\/.+\.ts$/,
  /^lib\/chat\/candidate\/.+\.ts$/,
  /^lib\/returns\/.+\.ts$/,
  /^lib\/work-queue\/.+\.ts$/,
  /^lib\/auth\/.+\.ts$/,
  /^db\/queries\/.+\.ts$/,
];
const OUT_OF_SCOPE = [/^lib\/tools\/[^/]+\/test-table\.ts$/, /^lib\/auth\/client\.ts$/];

const git = (...args) => {
  const r = spawnSync("git", args, { cwd: root, encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : null;
};

function base() {
  if (process.env.MUTATION_BASE) return process.env.MUTATION_BASE;
  const head = git("rev-parse", "HEAD");
  for (const ref of ["origin/main", "main"]) {
    const mergeBase = git("merge-base", "HEAD", ref);
    if (mergeBase && mergeBase !== head) return mergeBase;
  }
  // On main itself: the last commit is the change.
  return git("rev-parse", "--verify", "-q", "HEAD~1");
}

const from = base();
const names = new Set(
  [
    ...(from ? (git("diff", "--name-only", from, "HEAD") ?? "").split("\n") : []),
    // What is not committed yet (a local run before the commit).
    ...(git("diff", "--name-only", "HEAD") ?? "").split("\n"),
  ].filter(Boolean),
);
const files = [...names]
  .filter((f) => SCOPE.some((re) => re.test(f)) && !OUT_OF_SCOPE.some((re) => re.test(f)))
  .filter((f) => fs.existsSync(path.join(root, f)))
  .sort();

if (files.length === 0) {
  console.log(
    `[mutation] no file of the safety scope changed since ${from?.slice(0, 12) ?? "(no base)"}: nothing to test.`,
  );
  process.exit(0);
}
console.log(
  `[mutation] ${files.length} changed file(s) since ${from?.slice(0, 12)}: ${files.join(", ")}`,
);
const started = Date.now();
const child = spawn(
  path.join(root, "node_modules", ".bin", "stryker"),
  ["run", "--mutate", files.join(","), "--incremental", "--reporters", "clear-text,progress,json"],
  {
    cwd: root,
    stdio: "inherit",
    detached: true,
  },
);
let overBudget = false;
const timer = setTimeout(() => {
  overBudget = true;
  // Stryker and the test processes it started (its own process group).
  process.kill(-child.pid, "SIGTERM");
}, budget * 1000);
child.on("exit", (code) => {
  clearTimeout(timer);
  const seconds = Math.round((Date.now() - started) / 1000);
  if (overBudget) {
    console.error(
      `[mutation] stopped after ${budget} s (MUTATION_BUDGET_SECONDS): too many new mutants for CI. Run \`npm run test:mutation\` locally (same base) and commit mutation/incremental.json; CI then reuses its results.`,
    );
    process.exit(1);
  }
  console.log(`[mutation] ${seconds} s; Stryker exited ${code}`);
  const report = path.join(root, strykerConfig.jsonReporter.fileName);
  // No report from this run: Stryker failed before scoring anything, and its code says so.
  if (!fs.existsSync(report) || fs.statSync(report).mtimeMs < started) process.exit(code || 1);
  const { files: reportFiles } = JSON.parse(fs.readFileSync(report, "utf8"));
  const { score, killed, timeout, survived, noCoverage } = changedFilesScore(reportFiles, files);
  const floor = strykerConfig.thresholds.break;
  console.log(
    `[mutation] the changed files: ${score.toFixed(2)} % (${killed} killed, ${timeout} timed out, ${survived} survived, ${noCoverage} without a covering test); the floor is ${floor} %`,
  );
  process.exit(score < floor ? 1 : 0);
});
