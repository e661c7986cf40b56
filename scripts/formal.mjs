// npm run test:formal: checks the Promela models in formal/ with spin (docs/formal.md):
// actions.pml (the action and its refund at a payment provider) and store.pml (a cancellation
// at a store without idempotency keys, Medusa) and stock.pml (exchange_items' reservation of the
// last unit of a size by compare-and-set).
//
// Every configuration of the protocol is generated (spin -a), compiled (gcc) and checked for
// each property; each must hold. Then every planted bug (a -DBUG_... build of the same model)
// must make its property fail with a counterexample trail that spin can replay, so a model or
// a check that has stopped seeing anything cannot pass. Fails (exit 1) on anything else.
//
//   npm run test:formal                  everything, a summary line per check
//   npm run test:formal -- --trail=NAME  also print the replayed trail of that planted bug
//   npm run test:formal -- --only=NAME   only the checks whose name (or model file) contains NAME
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const arg = (name) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? null;
const trailOf = arg("trail");
const only = arg("only");

/**
 * Each model: its properties (safety ones are checked with -a, liveness ones under weak
 * fairness), the configurations of the protocol as built, in which every property must hold,
 * and the planted bugs, each of which must break exactly the property named, so that the checker
 * itself is tested. A planted name's BUG_ parts (joined by +) are its -D flags; `defines` are the
 * rest. A name not starting with BUG_ is not a bug in the code but a known limit of the protocol
 * that the model must keep showing (docs/formal.md has each).
 */
const MODELS = [
  {
    file: "actions.pml",
    safety: ["one_execution", "one_refund", "no_effect_without_decision", "no_execution_after_end"],
    liveness: ["leaves_in_flight"],
    configs: [
      { name: "keeps-keys/2-relays", defines: [] },
      { name: "forgets-keys/2-relays", defines: ["FORGETS"] },
      // Three relays with the action confirmed at once (EFFECT_ONLY): the action side's
      // interleavings multiply the relays' without touching them, and are checked above.
      { name: "keeps-keys/3-relays", defines: ["RELAYS=3", "EFFECT_ONLY"] },
      { name: "forgets-keys/3-relays", defines: ["FORGETS", "RELAYS=3", "EFFECT_ONLY"] },
    ],
    planted: [
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
      // A provider that forgets keys at once, and a live relay outliving its lease between its
      // lookup and its send, do refund twice: the assumption the lease stands for.
      {
        name: "ASSUMPTION_LEASE_OUTLIVED",
        defines: ["FORGETS", "SLOW_RELAY"],
        breaks: "one_refund",
      },
    ],
  },
  {
    file: "store.pml",
    safety: ["one_write", "success_is_true", "no_write_on_changed_order"],
    liveness: ["leaves_in_flight"],
    configs: [
      { name: "medusa/2-relays", defines: [] },
      { name: "medusa/3-relays", defines: ["RELAYS=3"] },
      // What a store with a real compare-and-set would give: the strict property holds too.
      {
        name: "true-cas/2-relays",
        defines: ["TRUE_CAS"],
        extra: ["no_write_on_changed_order_strict"],
      },
      // Two guards against a second cancel, each enough alone: the relay's lookup before a
      // retry, and cancel()'s own reading of the order before it writes.
      { name: "no-lookup/2-relays", defines: ["BUG_SKIP_LOOKUP"] },
      { name: "blind-cancel/2-relays", defines: ["BUG_BLIND_CANCEL"] },
      // The merchant may cancel the order too, also after our metadata write: the lookup tells
      // whose cancel it was by who made its refunds, so every property still holds.
      { name: "merchant-cancels/2-relays", defines: ["MERCHANT_CANCELS"] },
    ],
    planted: [
      { name: "BUG_CLAIM_LIVE_LEASE", defines: [], breaks: "one_write" },
      { name: "BUG_SKIP_LOOKUP+BUG_BLIND_CANCEL", defines: [], breaks: "one_write" },
      { name: "BUG_NO_UPDATED_AT_CHECK", defines: [], breaks: "no_write_on_changed_order" },
      { name: "BUG_CANCEL_IGNORES_ANSWER", defines: [], breaks: "success_is_true" },
      { name: "BUG_NO_LEASE_EXPIRY", defines: [], breaks: "leaves_in_flight" },
      // Medusa's updated_at check is a read, then a write: a merchant's edit between them (or
      // after our id is in the metadata, before the cancel) is not seen.
      { name: "WINDOW_CHECK_THEN_WRITE", defines: [], breaks: "no_write_on_changed_order_strict" },
      { name: "ASSUMPTION_LEASE_OUTLIVED", defines: ["SLOW_RELAY"], breaks: "one_write" },
      // The lookup's old check (cancelled with our id in the metadata is ours): a merchant's own
      // cancel after our id reached the metadata reads as ours.
      {
        name: "BUG_LOOKUP_IGNORES_ACTOR",
        defines: ["MERCHANT_CANCELS"],
        breaks: "success_is_true",
      },
      // An order with no captured payment: its cancel refunds nothing, so nothing tells whose it
      // was, and a merchant's cancel after our metadata write is still credited to us.
      {
        name: "GAP_UNCAPTURED",
        defines: ["MERCHANT_CANCELS", "UNCAPTURED"],
        breaks: "success_is_true",
      },
    ],
  },
  {
    file: "stock.pml",
    safety: ["stock_never_negative", "units_accounted", "sold_out_stores_nothing"],
    liveness: ["every_confirm_ends"],
    configs: [
      { name: "last-unit/3-confirmers", defines: [] },
      // A delivery arriving mid-race moves the version: a reservation that read before it
      // reads again and may then win the new unit.
      { name: "last-unit+delivery/3-confirmers", defines: ["RESTOCK"] },
      { name: "last-unit/4-confirmers", defines: ["CONFIRMERS=4"] },
    ],
    planted: [
      // stock = <what was read> - q, without the version in the WHERE: two take the last unit.
      { name: "BUG_NO_CAS", defines: [], breaks: "units_accounted" },
      // Neither the read nor the WHERE checks that enough units are left.
      { name: "BUG_NO_STOCK_CHECK", defines: [], breaks: "stock_never_negative" },
      // The exchange row committed before the stock is reserved: "sold out", and stored anyway.
      { name: "BUG_RESERVE_AFTER_COMMIT", defines: [], breaks: "sold_out_stores_nothing" },
      // A transaction that ends without releasing the row: the others wait forever.
      { name: "BUG_LOCK_KEPT", defines: [], breaks: "every_confirm_ends" },
    ],
  },
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
function build(file, defines, dir, optimise = "-O2") {
  mkdirSync(dir, { recursive: true });
  copyFileSync(path.join(root, "formal", file), path.join(dir, file));
  const d = defines.map((x) => `-D${x}`);
  execFileSync("spin", [...d, "-a", file], { cwd: dir, stdio: "pipe" });
  execFileSync("gcc", [optimise, ...CFLAGS, "-o", "pan", "pan.c"], { cwd: dir, stdio: "pipe" });
  return dir;
}

/** One pan run for one property: its figures, errors and whether a trail was written. */
function check(m, dir, property) {
  const liveness = m.liveness.includes(property);
  // -a for every claim (a safety claim's violation is its end; -a also covers its accept
  // labels), weak fairness for the liveness one.
  const flags = ["-a", ...(liveness ? ["-f"] : []), "-m200000", "-w22", "-N", property];
  const trail = path.join(dir, `${m.file}.trail`);
  rmSync(trail, { force: true });
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
    trail: existsSync(trail),
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
    `${status.padEnd(4)} ${name.padEnd(44)} ${property.padEnd(44)} ${String(r.states).padStart(9)} states ${r.memoryMb.toFixed(0).padStart(5)} MB ${r.seconds.toFixed(2).padStart(6)} s  pan ${r.flags}`,
  );
const total = performance.now();
const picked = (m, name) => !only || name.includes(only) || m.file.includes(only);
const dirOf = (m, name) => path.join(work, `${m.file}_${name.replace(/[/+]/g, "_")}`);

try {
  for (const m of MODELS) {
    for (const c of m.configs) {
      const name = `${m.file} ${c.name}`;
      if (!picked(m, name)) continue;
      const dir = build(m.file, c.defines, dirOf(m, c.name));
      for (const p of [...m.safety, ...(c.extra ?? []), ...m.liveness]) {
        const r = check(m, dir, p);
        const good = r.ok && r.errors === 0 && !r.trail && !r.incomplete;
        line(good ? "ok" : "FAIL", name, p, r);
        if (!good) failures.push(`${name}: ${p} does not hold\n${r.out}`);
      }
    }
    for (const b of m.planted) {
      const name = `${m.file} ${b.name}`;
      if (!picked(m, name)) continue;
      const defines = [...b.name.split("+").filter((x) => x.startsWith("BUG_")), ...b.defines];
      const dir = build(m.file, defines, dirOf(m, b.name), "-O0");
      const r = check(m, dir, b.breaks);
      // The counterexample must replay: spin -t follows the trail through the model.
      const replay = r.trail
        ? spawnSync("spin", [...defines.map((x) => `-D${x}`), "-t", "-p", "-g", m.file], {
            cwd: dir,
            encoding: "utf8",
          })
        : null;
      const replayed =
        replay?.status === 0 &&
        (m.liveness.includes(b.breaks)
          ? /START OF CYCLE/.test(replay.stdout)
          : /Error: assertion violated/.test(replay.stdout));
      const good = r.errors >= 1 && r.trail && replayed;
      line(good ? "ok" : "FAIL", name, `${b.breaks} (must fail)`, r);
      if (!good) failures.push(`${name}: expected a counterexample to ${b.breaks}\n${r.out}`);
      if (trailOf === b.name && replay) console.log(replay.stdout);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

console.log(`test:formal: ${((performance.now() - total) / 1000).toFixed(1)} s in all`);
if (failures.length > 0) {
  for (const f of failures) console.error(`\n${f}`);
  process.exit(1);
}
