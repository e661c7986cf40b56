// npm test: every step CI runs, in stages, with each step's wall time in a table at the end.
//
// Steps of one stage run side by side when they do not compete for the same thing: tsc is one
// thread, Biome and spin are quick, so the static checks share the two cores; everything that
// starts servers or browsers runs alone (the two e2e runs side by side took 883 and 912 s where
// each alone takes about 220 s: two browsers and ten servers on two cores). A stage runs only when the one before passed (as the
// old `a && b && c` did), and the table is printed whatever happened.
//
// Each step's budget is in docs/testing.md, the table under "Budgets" (one place: this script
// reads it). A step over 1.5 times its budget is marked SLOW and named again at the end, loudly,
// but never fails the run: machines are noisy, and a slow machine must not stop a landing.
//
//   npm test                          everything
//   npm test -- --from=test:store     start at that step's stage (after a fix, say)
//   npm test -- --only=lint,test:unit only those steps
//
// The table also goes to test-results/steps.json, which .ci/run prints with its install steps.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
export const STAGES = [
  ["typecheck", "lint", "test:formal"],
  ["test:unit"],
  ["test:mutation"],
  ["test:store"],
  ["test:e2e"],
  ["test:e2e:store"],
  ["test:lighthouse"],
  ["test:e2e:postgres"],
];
export const SLOW_FACTOR = 1.5;

const arg = (name) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? null;

export function readBudgets(markdown) {
  const budgets = {};
  const section = markdown.split(/^## /m).find((s) => s.startsWith("Budgets"));
  for (const line of (section ?? "").split("\n")) {
    const m = line.match(/^\|\s*`([^`]+)`\s*\|\s*(\d+)\s*\|/);
    if (m) budgets[m[1]] = Number(m[2]);
  }
  return budgets;
}

function selectedStages() {
  const only = arg("only")?.split(",");
  const from = arg("from");
  let stages = STAGES;
  if (from) {
    const at = stages.findIndex((s) => s.includes(from));
    if (at < 0) throw new Error(`--from=${from}: no such step`);
    stages = stages.slice(at);
  }
  if (only) stages = stages.map((s) => s.filter((step) => only.includes(step)));
  return stages.filter((s) => s.length > 0);
}

/** One step: `npm run <name>`. Alone, its output streams; beside others, it is held and printed whole when it ends. */
function runStep(name, alone) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn("npm", ["run", "-s", name], {
      cwd: root,
      stdio: alone ? "inherit" : ["ignore", "pipe", "pipe"],
      env: process.env,
    });
    const held = [];
    if (!alone) {
      child.stdout.on("data", (d) => held.push(d));
      child.stderr.on("data", (d) => held.push(d));
    }
    child.on("close", (code, signal) => {
      if (!alone) {
        process.stdout.write(`\n──── ${name} ────\n`);
        process.stdout.write(Buffer.concat(held));
      }
      resolve({
        name,
        seconds: (Date.now() - started) / 1000,
        ok: code === 0,
        code: code ?? signal,
      });
    });
  });
}

export function table(results, budgets, notRun) {
  const rows = [
    ...results.map((r) => {
      const budget = budgets[r.name];
      const slow = r.ok && budget && r.seconds > SLOW_FACTOR * budget;
      const status = !r.ok
        ? `FAILED (${r.code})`
        : slow
          ? `SLOW: over ${SLOW_FACTOR}× budget`
          : "ok";
      return { ...r, budget, slow, status };
    }),
    ...notRun.map((name) => ({ name, seconds: null, budget: budgets[name], status: "not run" })),
  ];
  const fmt = (s) => (s == null ? "–" : `${Math.round(s)} s`);
  const lines = [
    "| step | wall | budget | |",
    "|---|---:|---:|---|",
    ...rows.map((r) => `| ${r.name} | ${fmt(r.seconds)} | ${fmt(r.budget)} | ${r.status} |`),
  ];
  return { rows, text: lines.join("\n") };
}

async function main() {
  const budgets = readBudgets(fs.readFileSync(path.join(root, "docs", "testing.md"), "utf8"));
  const stages = selectedStages();
  const started = Date.now();
  const results = [];
  let failed = false;
  const notRun = [];
  for (const stage of stages) {
    if (failed) {
      notRun.push(...stage);
      continue;
    }
    if (stage.length > 1) console.log(`\n[test] side by side: ${stage.join(", ")}`);
    const done = await Promise.all(stage.map((name) => runStep(name, stage.length === 1)));
    results.push(...done);
    failed = done.some((r) => !r.ok);
  }
  const total = (Date.now() - started) / 1000;
  const { rows, text } = table(results, budgets, notRun);
  console.log(`\n[test] each step's wall time (budgets: docs/testing.md)\n\n${text}`);
  console.log(`\n[test] npm test: ${Math.round(total)} s in all, ${failed ? "FAILED" : "passed"}`);
  const slow = rows.filter((r) => r.slow);
  if (slow.length > 0) {
    const names = slow.map((r) => `${r.name} (${Math.round(r.seconds)} s, budget ${r.budget} s)`);
    console.log(
      `\n[test] !!! WARNING: over ${SLOW_FACTOR}× the budget: ${names.join("; ")}. A warning, not a failure: look at what made it slow (docs/testing.md).\n`,
    );
  }
  fs.mkdirSync(path.join(root, "test-results"), { recursive: true });
  fs.writeFileSync(
    path.join(root, "test-results", "steps.json"),
    `${JSON.stringify({ total, failed, steps: rows }, null, 2)}\n`,
  );
  process.exit(failed ? 1 : 0);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
