/**
 * The load benchmark's results as Markdown, and their place in docs/benchmarks.md: only the
 * block between the bench:load:results markers is rewritten, so the hand-written notes around
 * it (what was profiled and changed) and other benchmarks' sections stay as they are.
 */
import fs from "node:fs";
import type { CapacityPhase } from "./capacity";
import { startFlags } from "./server";
import type { StepStats } from "./stats";

/** How the server was run: `npm start`'s command (bench/lib/server.ts). */
const serverCommand = () =>
  `\`node ${[...startFlags(), "scripts/start.mjs"].join(" ")}\`, as \`npm start\` runs it`;

const SECTION = ["<!-- bench:load:start -->", "<!-- bench:load:end -->"] as const;
/** One results block per database: the SQLite run and the PostgreSQL run sit side by side. */
const RESULTS = {
  sqlite: ["<!-- bench:load:results:start -->", "<!-- bench:load:results:end -->"],
  postgres: [
    "<!-- bench:load:postgres:results:start -->",
    "<!-- bench:load:postgres:results:end -->",
  ],
} as const;

export type Phase = {
  concurrency: number;
  wallSeconds: number;
  totalRequests: number;
  steps: StepStats[];
  floors: { health: StepStats; stream: StepStats };
};

export type LoadReport = {
  date: string;
  machine: string;
  command: string;
  customers: number;
  flows: number;
  store: string;
  db: "sqlite" | "postgres";
  instances: number;
  loaded: Phase;
  serial: Phase;
  capacity: CapacityPhase;
  /** Per instance: the RSS of its process tree. */
  peakRssBytes: number[];
  idleRssBytes: number[];
  failures: string[];
};

const ms = (n: number) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(2) : n.toFixed(1)) : "–");
const x = (a: number, b: number) => (b > 0 && Number.isFinite(a) ? `${(a / b).toFixed(1)}×` : "–");
const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;

/** One table: every step with its floor (JSON steps: health; chat turns: the bare stream). */
function table(p: Phase): string[] {
  const floorOf = (step: string) => (step.startsWith("turn:") ? p.floors.stream : p.floors.health);
  const row = (s: StepStats, floor?: StepStats) =>
    `| ${s.step} | ${s.count} | ${s.errors} | ${s.rps.toFixed(1)} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.p99)} | ` +
    (floor
      ? `${floor.step.replace("floor: ", "")} | ${x(s.p50, floor.p50)} | ${x(s.p95, floor.p95)} |`
      : "– | – | – |");
  return [
    "| step | requests | errors | req/s | p50 | p95 | p99 | floor | p50 / floor | p95 / floor |",
    "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|",
    ...p.steps.map((s) => row(s, floorOf(s.step))),
    row(p.floors.health),
    row(p.floors.stream),
  ];
}

/** The goal for the capacity phase: one status turn costs at most this many health requests. */
const HEALTH_PER_TURN_GOAL = 5;

/** The capacity phase: requests/s of each kind alone, and each kind's cost in health requests. */
function capacityTable(c: CapacityPhase): string[] {
  const health = c.kinds.find((k) => k.step === "floor: health");
  return [
    "| kind (alone) | requests | errors | req/s | p50 | p95 | health req/s ÷ req/s |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...c.kinds.map(
      (k) =>
        `| ${k.step} | ${k.count} | ${k.errors} | ${k.rps.toFixed(1)} | ${ms(k.p50)} | ${ms(k.p95)} | ${health ? x(health.rps, k.rps) : "–"} |`,
    ),
    "",
    `**Health requests per status turn: ${Number.isFinite(c.healthPerTurn) ? c.healthPerTurn.toFixed(1) : "–"}** ` +
      `(goal ≤ ${HEALTH_PER_TURN_GOAL}: ${c.healthPerTurn <= HEALTH_PER_TURN_GOAL ? "met" : "not met"}).`,
  ];
}

export function renderResults(r: LoadReport): string {
  const { loaded, serial, capacity } = r;
  const lines = [
    `Run ${r.date} on ${r.machine}.`,
    `Command: \`${r.command}\`. Store: ${r.store}. Offline model, production build, ` +
      (r.db === "postgres"
        ? `${r.instances} server process${r.instances > 1 ? "es" : ""} (${serverCommand()}) on one PostgreSQL database${r.instances > 1 ? ", behind a round-robin proxy in the bench process (each request to the next instance)" : ""}.`
        : `one server process (${serverCommand()}) on a SQLite file.`),
    "",
    `**${r.customers} customers at once**, ${r.flows} customer flows (sign in, new chat, order status, return proposal, then confirm or cancel, alternating): ` +
      `${loaded.totalRequests} requests in ${loaded.wallSeconds.toFixed(1)} s = **${(loaded.totalRequests / loaded.wallSeconds).toFixed(1)} requests/s**.`,
    r.instances === 1
      ? `Server memory (RSS of the process tree; the peak is the kernel's high-water mark, VmHWM, reset after warm-up): ${mib(r.idleRssBytes[0] ?? 0)} after warm-up, **peak ${mib(r.peakRssBytes[0] ?? 0)}**.`
      : `Server memory per instance (RSS of each process tree; the peak is the kernel's high-water mark, VmHWM, reset after warm-up): after warm-up ${r.idleRssBytes.map(mib).join(", ")}; **peak ${r.peakRssBytes.map(mib).join(", ")}**.`,
    "Times in milliseconds per request, measured by the client over loopback; req/s is each step's count over its own busy window.",
    "",
    ...table(loaded),
    "",
    `**One customer at a time** (${serial.steps[0]?.count ?? 0} flows, same server): each step's own cost, without queueing.`,
    "",
    ...table(serial),
    "",
    `**Capacity at ${capacity.clients} clients** (same server): each kind of request alone, ${capacity.clients} in flight, ` +
      "every customer in its own chat (status turn, then return proposal, then confirm, each kind run to the end before the next).",
    "",
    ...capacityTable(capacity),
    "",
    "Floors, same server, same phase, same concurrency: `GET /api/health` (no session, one `SELECT 1`) for the JSON steps; " +
      "`GET /api/bench/floor` for the chat turns: a bare UI message stream of the turns' mean size " +
      `(${loaded.floors.stream.meanBytes.toFixed(0)} bytes; turns: ${meanTurnBytes(loaded.steps)} bytes) with no session, database or model.`,
  ];
  if (r.failures.length) {
    lines.push(
      "",
      `Errors (${r.failures.length}), first 5:`,
      ...r.failures.slice(0, 5).map((f) => `- ${f}`),
    );
  }
  return lines.join("\n");
}

function meanTurnBytes(steps: StepStats[]): string {
  const turns = steps.filter((s) => s.step.startsWith("turn:") && s.count > 0);
  const total = turns.reduce((a, s) => a + s.meanBytes * s.count, 0);
  const n = turns.reduce((a, s) => a + s.count, 0);
  return n ? (total / n).toFixed(0) : "–";
}

/** Puts the results into docs/benchmarks.md, creating the section (with its markers) if needed. */
export function writeResults(
  file: string,
  markdown: string,
  db: keyof typeof RESULTS = "sqlite",
): void {
  const doc = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Benchmarks\n";
  const [open, close] = RESULTS[db];
  const block = `${open}\n${markdown}\n${close}`;
  let next: string;
  if (doc.includes(open) && doc.includes(close)) {
    const a = doc.indexOf(open);
    const b = doc.indexOf(close) + close.length;
    next = doc.slice(0, a) + block + doc.slice(b);
  } else if (db === "postgres" && doc.includes(RESULTS.sqlite[1])) {
    // Right after the SQLite results, under a heading of its own.
    const at = doc.indexOf(RESULTS.sqlite[1]) + RESULTS.sqlite[1].length;
    next = `${doc.slice(0, at)}\n\n### PostgreSQL, several instances\n\n${block}${doc.slice(at)}`;
  } else {
    const section = `${SECTION[0]}\n## Load (\`npm run bench\`)\n\n${block}\n${SECTION[1]}\n`;
    next = doc.includes(SECTION[0])
      ? doc.slice(0, doc.indexOf(SECTION[0])) +
        section +
        doc.slice(doc.indexOf(SECTION[1]) + SECTION[1].length + 1)
      : `${doc.trimEnd()}\n\n${section}`;
  }
  fs.writeFileSync(file, next);
}

/**
 * Replaces what stands between `<!-- bench:NAME:results:start -->` and its end marker in
 * docs/benchmarks.md with `markdown`; the section around the markers is written by hand.
 */
export function writeBetweenMarkers(file: string, name: string, markdown: string): void {
  const [open, close] = [
    `<!-- bench:${name}:results:start -->`,
    `<!-- bench:${name}:results:end -->`,
  ];
  const doc = fs.readFileSync(file, "utf8");
  const a = doc.indexOf(open);
  const b = doc.indexOf(close);
  if (a < 0 || b < a) throw new Error(`${file} has no ${open} … ${close} block`);
  fs.writeFileSync(file, `${doc.slice(0, a + open.length)}\n${markdown}\n${doc.slice(b)}`);
}
