/**
 * `npm run bench [-- --customers=32 --flows=128 --profile --no-write]`
 *
 * Builds the production server into .next-bench, seeds a fresh large store, starts `next start`
 * with the offline model, and lets N customers at once go through the whole product: sign in,
 * new chat, "where is my order", "return it", confirm or cancel. Then, on the same server, the
 * floors (health; a bare UI message stream of the same size). Prints the table and writes it
 * into docs/benchmarks.md (only its own results block).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { runFloors } from "./lib/floor";
import { customerFlow, STEPS, type TurnShape } from "./lib/flow";
import { machine } from "./lib/machine";
import { sampleMemory } from "./lib/memory";
import { mainProfile, summarizeProfile } from "./lib/profile";
import { renderResults, writeResults } from "./lib/report";
import { returnableOrders, seedStore } from "./lib/seed";
import { ensureBuild, startServer, treeRssBytes } from "./lib/server";
import { pool, Recorder } from "./lib/stats";

const args = process.argv.slice(2);
const num = (name: string, fallback: number) => {
  const hit = args.find((a) => a.startsWith(`--${name}=`));
  const n = hit ? Number(hit.split("=")[1]) : fallback;
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`);
  return n;
};
const customers = num("customers", 32);
const flows = num("flows", customers * 4);
const profile = args.includes("--profile");
const WARMUP = 4;
const STORE = { customers: 5000, orders: 20000 };
const DIST = ".next-bench";
const root = path.resolve(import.meta.dirname, "..");
const profDir = path.join(root, "bench/.out/prof-server");

const log = (s: string) => console.log(`[bench] ${s}`);

let t = performance.now();
log(`building into ${DIST} (skipped when up to date)…`);
ensureBuild(DIST);
log(`build ready in ${((performance.now() - t) / 1000).toFixed(1)} s`);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-bench-"));
const dbFile = path.join(dir, "app.db");
t = performance.now();
await seedStore(dbFile, STORE);
const ro = new Database(dbFile, { readonly: true });
const people = returnableOrders(ro, flows + WARMUP);
ro.close();
if (people.length < flows + WARMUP)
  throw new Error(`only ${people.length} customers with a returnable order; lower --flows`);
log(`store seeded in ${((performance.now() - t) / 1000).toFixed(1)} s: ${dbFile}`);

if (profile) fs.rmSync(profDir, { recursive: true, force: true });
const server = await startServer({
  distDir: DIST,
  dbPath: dbFile,
  env: {
    BENCH_FLOOR_ROUTE: "1",
    // Every simulated customer comes from 127.0.0.1: per-IP and per-user budgets would
    // measure the limiter, not the app.
    CHAT_RATE_LIMIT_PER_MINUTE: "10000",
    AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE: "100000",
  },
  nodeArgs: profile ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`] : [],
});
log(`server ${server.url} (pid ${server.pid})`);

try {
  // Warm-up: first requests compile routes and fill caches; they are not measured.
  const scratch = new Recorder();
  for (const who of people.slice(0, WARMUP))
    await customerFlow(server.url, scratch, [], who, "cancel");
  await runFloors(server.url, scratch, { count: 50, concurrency: 4, shapes: [] });
  if (scratch.failures.length) throw new Error(`warm-up failed: ${scratch.failures[0]}`);
  const idleRss = treeRssBytes(server.pid);

  const rec = new Recorder();
  const shapes: TurnShape[] = [];
  const memory = sampleMemory(server.pid);
  log(`${flows} flows, ${customers} at once…`);
  const started = performance.now();
  const work = people.slice(WARMUP).map((who, i) => ({ who, i }));
  await pool(work, customers, ({ who, i }) =>
    customerFlow(server.url, rec, shapes, who, i % 2 === 0 ? "confirm" : "cancel"),
  );
  const wall = (performance.now() - started) / 1000;
  log(`floors, ${flows} requests each…`);
  await runFloors(server.url, rec, { count: flows, concurrency: customers, shapes });
  const { peakBytes } = memory.stop();

  const steps = STEPS.map((s) => rec.stats(s));
  const report = {
    date: new Date().toISOString(),
    machine: machine(),
    command: `npm run bench -- --customers=${customers} --flows=${flows}${profile ? " --profile" : ""}`,
    customers,
    flows,
    store: `demo + ${STORE.customers} customers, ${STORE.orders} orders`,
    wallSeconds: wall,
    totalRequests: steps.reduce((a, s) => a + s.count, 0),
    steps,
    floors: { health: rec.stats("floor: health"), stream: rec.stats("floor: stream") },
    peakRssBytes: peakBytes,
    idleRssBytes: idleRss,
    failures: rec.failures,
  };
  const markdown = renderResults(report);
  console.log(`\n${markdown}\n`);
  if (!args.includes("--no-write")) {
    writeResults(path.join(root, "docs/benchmarks.md"), markdown);
    log("results written to docs/benchmarks.md");
  }
  if (rec.failures.length) process.exitCode = 1;
} finally {
  await server.stop("SIGTERM");
  fs.rmSync(dir, { recursive: true, force: true });
}

if (profile) {
  const file = mainProfile(profDir);
  console.log(file ? summarizeProfile(file) : `no profile written to ${profDir}`);
}
