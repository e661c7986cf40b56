// npm run test:formal: checks formal/actions.pml with spin (docs/formal.md).
//
// Every configuration of the protocol is generated (spin -a), compiled (gcc) and checked for
// each property; each must hold. Then every planted bug (a -DBUG_... build of the same model)
// must make its property fail with a counterexample trail that spin can replay, so a model or
// a check that has stopped seeing anything cannot pass. Fails (exit 1) on anything else.
//
//   npm run test:formal                  everything, a summary line per check
//   npm run test:formal -- --trail=NAME  also print the replayed trail of that planted bug
//   npm run test:formal -- --only=NAME   only the checks whose name contains NAME
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const model = path.join(root, "formal", "actions.pml");
const arg = (name) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? null;
const trailOf = arg("trail");
const only = arg("only");

const SAFETY = [
  "one_execution",
  "one_refund",
  "no_effect_without_decision",
  "no_execution_after_end",
];
const LIVENESS = ["leaves_in_flight"];
const ALL = [...SAFETY, ...LIVENESS];

/** The protocol as built: every property holds, for each provider and number of relays. */
const CONFIGS = [
  { name: "keeps-keys/2-relays", defines: [] },
  { name: "forgets-keys/2-relays", defines: ["FORGETS"] },
  // Three relays with the action confirmed at once (EFFECT_ONLY): the action side's
  // interleavings multiply the relays' without touching them, and are checked above.
  { name: "keeps-keys/3-relays", defines: ["RELAYS=3", "EFFECT_ONLY"] },
  { name: "forgets-keys/3-relays", defines: ["FORGETS", "RELAYS=3", "EFFECT_ONLY"] },
];

/** Each must break exactly the property named: the checker itself is tested. */
const PLANTED = [
  { name: "BUG_SKIP_LOOKUP", defines: ["FORGETS"], breaks: "one_refund" },
  { name: "BUG_SDK_RETRY", defines: ["FORGETS"], breaks: "one_refund" },
  { name: "BUG_CLAIM_LIVE_LEASE", defines: ["FORGETS"], breaks: "one_refund" },
  { name: "BUG_RETRY_CLEARS_ERROR", defines: ["FORGETS"], breaks: "one_refund" },
  { name: "BUG_CLAIM_NO_STATUS", defines: [], breaks: "one_execution" },
  { name: "BUG_EFFECT_AT_PROPOSE", defines: [], breaks: "no_effect_without_decision" },
  { name: "BUG_REVISE_NO_CAS", defines: [], breaks: "no_execution_after_end" },
  { name: "BUG_REJECT_NO_CAS", defines: [], breaks: "no_execution_after_end" },
  { name: "BUG_NO_TAKEOVER", defines: [], breaks: "leaves_in_flight" },
  { name: "BUG_NO_LEASE_EXPIRY", defines: [], breaks: "leaves_in_flight" },
  // Not a bug in the code: the assumption the lease stands for (docs/formal.md). A provider that
  // forgets keys at once, and a live relay outliving its lease between its lookup and its send,
  // do refund twice; the check keeps the model honest about needing it.
  { name: "ASSUMPTION_LEASE_OUTLIVED", defines: ["FORGETS", "SLOW_RELAY"], breaks: "one_refund" },
];

function need(cmd) {
  const found = spawnSync("sh", ["-c", `command -v ${cmd}`], { encoding: "utf8" });
  if (found.status !== 0) {
    console.error(
      `test:formal needs \`${cmd}\` (Debian: apt-get install -y spin gcc; .ci/run installs both).`,
    );
    process.exit(1);
  }
}

// Bounded: pan stops at 1 GiB (MEMLIM, in MB) rather than take the machine; the state space is
// far below that (docs/formal.md has the figures).
const CFLAGS = ["-DMEMLIM=1024", "-DNFAIR=4", "-w"];

/**
 * spin -a and gcc in a directory of its own; returns that directory. A planted bug's
 * counterexample is a few hundred states away, so its verifier is compiled without optimising.
 */
function build(defines, dir, optimise = "-O2") {
  mkdirSync(dir, { recursive: true });
  copyFileSync(model, path.join(dir, "actions.pml"));
  const d = defines.map((x) => `-D${x}`);
  execFileSync("spin", [...d, "-a", "actions.pml"], { cwd: dir, stdio: "pipe" });
  execFileSync("gcc", [optimise, ...CFLAGS, "-o", "pan", "pan.c"], { cwd: dir, stdio: "pipe" });
  return dir;
}

/** One pan run for one property: its figures, errors and whether a trail was written. */
function check(dir, property) {
  const liveness = LIVENESS.includes(property);
  // -a for every claim (a safety claim's violation is its end; -a also covers its accept
  // labels), weak fairness for the liveness one.
  const flags = ["-a", ...(liveness ? ["-f"] : []), "-m200000", "-w22", "-N", property];
  rmSync(path.join(dir, "actions.pml.trail"), { force: true });
  const started = performance.now();
  const run = spawnSync("./pan", flags, { cwd: dir, encoding: "utf8" });
  const seconds = (performance.now() - started) / 1000;
  const out = run.stdout + run.stderr;
  const num = (re) => Number(out.match(re)?.[1] ?? Number.NaN);
  return {
    flags: flags.join(" "),
    ok: run.status === 0 && !/pan: out of memory|error: max search depth/.test(out),
    errors: num(/errors: (\d+)/),
    states: num(/(\d+) states, stored/),
    memoryMb: num(/([\d.]+)\s+total actual memory usage/),
    seconds,
    trail: existsSync(path.join(dir, "actions.pml.trail")),
    incomplete: /max search depth too small|Search not completed/.test(out),
    out,
  };
}

need("spin");
need("gcc");
const work = mkdtempSync(path.join(os.tmpdir(), "returns-desk-formal-"));
const failures = [];
const line = (status, name, property, r) =>
  console.log(
    `${status.padEnd(4)} ${name.padEnd(26)} ${property.padEnd(27)} ${String(r.states).padStart(9)} states ${r.memoryMb.toFixed(0).padStart(5)} MB ${r.seconds.toFixed(2).padStart(6)} s  pan ${r.flags}`,
  );
const total = performance.now();

try {
  for (const c of CONFIGS) {
    if (only && !c.name.includes(only)) continue;
    const dir = build(c.defines, path.join(work, c.name.replace("/", "_")));
    for (const p of ALL) {
      const r = check(dir, p);
      const good = r.ok && r.errors === 0 && !r.trail && !r.incomplete;
      line(good ? "ok" : "FAIL", c.name, p, r);
      if (!good) failures.push(`${c.name}: ${p} does not hold\n${r.out}`);
    }
  }
  for (const b of PLANTED) {
    if (only && !b.name.includes(only)) continue;
    const defines = b.name.startsWith("BUG_") ? [b.name, ...b.defines] : b.defines;
    const dir = build(defines, path.join(work, b.name), "-O0");
    const r = check(dir, b.breaks);
    // The counterexample must replay: spin -t follows the trail through the model.
    const replay = r.trail
      ? spawnSync("spin", [...defines.map((x) => `-D${x}`), "-t", "-p", "-g", "actions.pml"], {
          cwd: dir,
          encoding: "utf8",
        })
      : null;
    const replayed =
      replay?.status === 0 &&
      (LIVENESS.includes(b.breaks)
        ? /START OF CYCLE/.test(replay.stdout)
        : /Error: assertion violated/.test(replay.stdout));
    const good = r.errors >= 1 && r.trail && replayed;
    line(good ? "ok" : "FAIL", b.name, `${b.breaks} (must fail)`, r);
    if (!good) failures.push(`${b.name}: expected a counterexample to ${b.breaks}\n${r.out}`);
    if (trailOf === b.name && replay) console.log(replay.stdout);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

console.log(`test:formal: ${((performance.now() - total) / 1000).toFixed(1)} s in all`);
if (failures.length > 0) {
  for (const f of failures) console.error(`\n${f}`);
  process.exit(1);
}
