/**
 * `npm run bench [-- --customers=32 --flows=128 --serial=24 --capacity=128 --clients=16 --profile --no-write]`
 * `npm run bench -- --db=postgres --instances=3`   (BENCH_DATABASE_URL, else TEST_DATABASE_URL,
 *                                                  else postgres://postgres@127.0.0.1:5432/postgres)
 *
 * Builds the production server into .next-bench, seeds a fresh large store (a SQLite file, or a
 * new PostgreSQL database that is dropped afterwards), starts `scripts/serve.mjs` with the offline
 * model (with --instances=N, N of them on the PostgreSQL database behind a round-robin proxy,
 * bench/lib/proxy.ts), and lets N customers at once go through the whole product: sign in,
 * new chat, "where is my order", "return it", confirm or cancel. Then, on the same server, the
 * floors (health; a bare UI message stream of the same size). A second, serial phase (one
 * customer at a time) gives each step's own cost without queueing. A third, the capacity phase,
 * runs each kind of request alone with `--clients` in flight (bench/lib/capacity.ts): requests/s
 * per kind, and how many health requests one turn costs. Prints the tables and writes them into
 * docs/benchmarks.md (only its own results block).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { runCapacity } from "./lib/capacity";
import { runFloors } from "./lib/floor";
import { customerFlow, STEPS, type TurnShape } from "./lib/flow";
import { machine } from "./lib/machine";
import { sampleMemory } from "./lib/memory";
import { mainProfile, summarizeProfile } from "./lib/profile";
import { roundRobin } from "./lib/proxy";
import { renderResults, writeResults } from "./lib/report";
import { createPgDatabase, returnableOrders, returnableOrdersPg, seedStore } from "./lib/seed";
import { ensureBuild, type Server, startServer, treeRssBytes } from "./lib/server";
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
const serial = num("serial", 24);
/** Customers of the capacity phase: each does one status turn, one proposal and one confirm. */
const capacity = num("capacity", 128);
const clients = num("clients", 16);
const profile = args.includes("--profile");
const dbArg = args.find((a) => a.startsWith("--db="))?.split("=")[1] ?? "sqlite";
if (dbArg !== "sqlite" && dbArg !== "postgres") throw new Error("--db must be sqlite or postgres");
const dbKind: "sqlite" | "postgres" = dbArg;
const instances = num("instances", 1);
if (instances > 1 && dbKind === "sqlite")
  throw new Error("--instances needs --db=postgres (SQLite is one file on one machine)");
const pgServer =
  process.env.BENCH_DATABASE_URL?.trim() ||
  process.env.TEST_DATABASE_URL?.trim() ||
  "postgres://postgres@127.0.0.1:5432/postgres";
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
const pgDb = dbKind === "postgres" ? await createPgDatabase(pgServer, "rd_bench") : undefined;
const target = pgDb?.url ?? dbFile;
t = performance.now();
const wanted = WARMUP + flows + serial + capacity;
let people: { email: string; orderId: string }[];
try {
  await seedStore(target, STORE);
  if (pgDb) people = await returnableOrdersPg(pgDb.url, wanted);
  else {
    const ro = new Database(dbFile, { readonly: true });
    people = returnableOrders(ro, wanted);
    ro.close();
  }
  if (people.length < wanted)
    throw new Error(`only ${people.length} customers with a returnable order; lower --flows`);
} catch (err) {
  // A failed start must not leave its database on the server.
  await pgDb?.drop();
  throw err;
}
log(
  `store seeded in ${((performance.now() - t) / 1000).toFixed(1)} s: ${pgDb ? "PostgreSQL" : dbFile}`,
);

if (profile) fs.rmSync(profDir, { recursive: true, force: true });
const serverEnv = {
  BENCH_FLOOR_ROUTE: "1",
  // Every simulated customer comes from 127.0.0.1: per-IP and per-user budgets would
  // measure the limiter, not the app.
  CHAT_RATE_LIMIT_PER_MINUTE: "10000",
  AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE: "100000",
  ...(pgDb
    ? { DATABASE_URL: pgDb.url, BETTER_AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0" }
    : {}),
};
const servers: Server[] = await Promise.all(
  Array.from({ length: instances }, () =>
    startServer({
      distDir: DIST,
      dbPath: dbFile,
      env: serverEnv,
      nodeArgs: profile ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`] : [],
    }),
  ),
);
const proxy = instances > 1 ? await roundRobin(servers.map((s) => s.url)) : undefined;
const base = proxy?.url ?? servers[0]!.url;
log(
  `${instances === 1 ? "server" : `${instances} instances behind ${base}:`} ${servers.map((s) => `${s.url} (pid ${s.pid})`).join(", ")}`,
);

try {
  // Warm-up: first requests compile routes and fill caches; they are not measured.
  const scratch = new Recorder();
  // Every instance gets warmed (the proxy takes turns), so the first measured requests do not
  // pay for route compilation on one of them.
  for (const who of people.slice(0, WARMUP)) await customerFlow(base, scratch, [], who, "cancel");
  await runFloors(base, scratch, { count: 50 * instances, concurrency: 4, shapes: [] });
  if (scratch.failures.length) throw new Error(`warm-up failed: ${scratch.failures[0]}`);
  const idleRss = servers.map((s) => treeRssBytes(s.pid));

  const memory = servers.map((s) => sampleMemory(s.pid));
  log(`${flows} flows, ${customers} at once…`);
  const loaded = await phase(base, people.slice(WARMUP, WARMUP + flows), customers);
  log(`${serial} flows one at a time…`);
  const alone = await phase(base, people.slice(WARMUP + flows, WARMUP + flows + serial), 1);
  // The memory figures stay those of the 32-customer and serial phases.
  const peaks = memory.map((m) => m.stop().peakBytes);
  log(`capacity: each kind alone, ${capacity} of each, ${clients} at once…`);
  const saturated = await runCapacity(base, people.slice(WARMUP + flows + serial), {
    clients,
    floorCount: capacity * 4,
  });

  const report = {
    date: new Date().toISOString(),
    machine: machine(),
    command: `npm run bench -- --customers=${customers} --flows=${flows} --serial=${serial} --capacity=${capacity} --clients=${clients}${dbKind === "postgres" ? ` --db=postgres --instances=${instances}` : ""}${profile ? " --profile" : ""}`,
    db: dbKind,
    instances,
    customers,
    flows,
    store: `demo + ${STORE.customers} customers, ${STORE.orders} orders`,
    loaded,
    serial: alone,
    capacity: saturated,
    peakRssBytes: peaks,
    idleRssBytes: idleRss,
    failures: [...loaded.failures, ...alone.failures, ...saturated.failures],
  };
  const markdown = renderResults(report);
  console.log(`\n${markdown}\n`);
  if (!args.includes("--no-write")) {
    writeResults(path.join(root, "docs/benchmarks.md"), markdown, dbKind);
    log("results written to docs/benchmarks.md");
  }
  if (report.failures.length) process.exitCode = 1;
} finally {
  await proxy?.close();
  await Promise.all(servers.map((s) => s.stop("SIGTERM")));
  await pgDb?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
}

if (profile) {
  const file = mainProfile(profDir);
  console.log(file ? summarizeProfile(file) : `no profile written to ${profDir}`);
}

/** Flows for these customers, `concurrency` at a time, then both floors at the same concurrency. */
async function phase(base: string, who: { email: string; orderId: string }[], concurrency: number) {
  const rec = new Recorder();
  const shapes: TurnShape[] = [];
  const started = performance.now();
  const work = who.map((w, i) => ({ w, i }));
  await pool(work, concurrency, ({ w, i }) =>
    customerFlow(base, rec, shapes, w, i % 2 === 0 ? "confirm" : "cancel"),
  );
  const wallSeconds = (performance.now() - started) / 1000;
  await runFloors(base, rec, { count: Math.max(who.length, 48), concurrency, shapes });
  const steps = STEPS.map((s) => rec.stats(s));
  return {
    concurrency,
    wallSeconds,
    totalRequests: steps.reduce((a, s) => a + s.count, 0),
    steps,
    floors: { health: rec.stats("floor: health"), stream: rec.stats("floor: stream") },
    failures: rec.failures,
  };
}
