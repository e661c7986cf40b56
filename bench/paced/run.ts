/**
 * `npm run bench:paced [-- --levels=50,200,500 --seconds=15 --first-token-ms=300 --words=60
 *   --words-per-second=50 --routes=bare,next,app --profile --no-write]`
 *
 * A chat turn at a hosted model's pace. The model is the tests' loopback OpenAI server
 * in a process of its own, paced like a hosted model (bench/paced/model.ts). The turn is the
 * status question, "Where is my order NNNN?": two model calls and a tool. N customers at once,
 * each asking in a loop for `--seconds`, on three routes in the same run, one after another per
 * level:
 *   - bare: the smallest AI SDK server (bench/paced/bare-server.ts; no Next, no auth, no database);
 *   - next: POST /api/bench/model inside the production server (Next + the AI SDK, same model and
 *     tool, no auth or database; BENCH_FLOOR_ROUTE=1);
 *   - app:  POST /api/chats/{id}/messages on the production server as `npm start` runs it, on a
 *     large store, signed in.
 * At the client: time to the first text token and to the end of the turn. At the servers: CPU
 * per turn (/proc), peak RSS (VmHWM, reset per phase) and event-loop delay
 * (monitorEventLoopDelay, bench/paced/loop-probe.mjs). Writes docs/benchmarks.md's paced block.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { HttpCustomer } from "../lib/client";
import { machine } from "../lib/machine";
import { mainProfile, summarizeProfile } from "../lib/profile";
import { returnableOrders, seedStore } from "../lib/seed";
import { ensureBuild, resetTreePeakRss, startFlags, startServer } from "../lib/server";
import { pool } from "../lib/stats";
import { type PacedReport, type RouteName, renderPaced, writePaced } from "./report";
import { type PhaseResult, runPhase } from "./turns";

const args = process.argv.slice(2);
const opt = (name: string) => {
  const hit = args.find((a) => a.startsWith(`--${name}=`));
  return hit?.slice(name.length + 3);
};
const num = (name: string, fallback: number) => {
  const v = opt(name);
  const n = v === undefined ? fallback : Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number >= 0`);
  return n;
};
const levels = (opt("levels") ?? "50,200,500").split(",").map(Number);
if (levels.some((n) => !Number.isInteger(n) || n < 1))
  throw new Error("--levels must be positive integers");
const seconds = num("seconds", 15);
const pace = {
  firstTokenMs: num("first-token-ms", 300),
  words: num("words", 60),
  wordsPerSecond: num("words-per-second", 50),
};
const routes = (opt("routes") ?? "bare,next,app").split(",") as RouteName[];
if (routes.some((r) => !["bare", "next", "app"].includes(r)))
  throw new Error("--routes: bare, next, app");
const profile = args.includes("--profile");
/** Extra node flags for the production server, after npm start's own (experiments: heap sizes). */
const serverFlags = (opt("server-flags") ?? "").split(",").filter(Boolean);
const DIST = ".next-bench";
const STORE = { customers: 5000, orders: 20000 };
const root = path.resolve(import.meta.dirname, "../..");
const probe = path.join(root, "bench/paced/loop-probe.mjs");
const profDir = path.join(root, "bench/.out/prof-paced");
const log = (s: string) => console.log(`[bench:paced] ${s}`);

log(`building into ${DIST} (skipped when up to date)…`);
ensureBuild(DIST);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-paced-"));
const dbFile = path.join(dir, "app.db");
const children: ChildProcess[] = [];
const stops: (() => Promise<void>)[] = [];
try {
  const customers = Math.max(...levels);
  let t = performance.now();
  await seedStore(dbFile, STORE);
  const ro = new Database(dbFile, { readonly: true });
  const people = returnableOrders(ro, customers);
  ro.close();
  if (people.length < customers) throw new Error(`only ${people.length} customers in the store`);
  log(`store seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  const modelLoop = path.join(dir, "loop-model.json");
  const model = await spawnJson<{ baseURL: string }>(
    children,
    [
      "--import",
      probe,
      "--import",
      "tsx",
      path.join(root, "bench/paced/model.ts"),
      `--first-token-ms=${pace.firstTokenMs}`,
      `--words=${pace.words}`,
      `--words-per-second=${pace.wordsPerSecond}`,
    ],
    // Its event loop's delay says whether the model kept its pace (a late timer is a slow word).
    { BENCH_LOOP_FILE: modelLoop },
  );
  const modelEnv = { OPENAI_API_KEY: "bench", OPENAI_BASE_URL: model.value.baseURL };
  const bare = await spawnJson<{ url: string }>(
    children,
    ["--import", probe, "--import", "tsx", path.join(root, "bench/paced/bare-server.ts")],
    { ...modelEnv, BENCH_LOOP_FILE: path.join(dir, "loop-bare.json") },
  );
  if (profile) fs.rmSync(profDir, { recursive: true, force: true });
  const app = await startServer({
    distDir: DIST,
    dbPath: dbFile,
    nodeArgs: [
      "--import",
      probe,
      ...serverFlags,
      ...(profile ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`] : []),
    ],
    env: {
      ...modelEnv,
      MODEL_PROVIDER: "openai",
      OPENAI_MODEL: "bench-model",
      BENCH_FLOOR_ROUTE: "1",
      BENCH_LOOP_FILE: path.join(dir, "loop-app.json"),
      CHAT_RATE_LIMIT_PER_MINUTE: "10000",
      LOG_LEVEL: "warn",
    },
  });
  stops.push(() => app.stop("SIGTERM"));
  log(`model ${model.value.baseURL}, bare ${bare.value.url}, app ${app.url} (pid ${app.pid})`);

  t = performance.now();
  // The comparison routes need no session: sign-ins (a password hash each) only for our turn.
  const signedIn: { c: HttpCustomer; orderId: string }[] = routes.includes("app")
    ? []
    : people.map((p) => ({ c: null as unknown as HttpCustomer, orderId: p.orderId }));
  if (routes.includes("app"))
    await pool(people, 4, async (p) => {
      signedIn.push({ c: await HttpCustomer.signIn(app.url, p.email), orderId: p.orderId });
    });
  log(`${signedIn.length} customers signed in in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  // Kept-alive connections, a new pool per phase: a connection left idle by the phase before
  // could be closed by the server (its keep-alive timeout, 5 s) just as a request goes out on it,
  // an ECONNRESET that says nothing about the route.
  const newAgent = () => new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const target = {
    bare: { base: bare.value.url, pid: bare.child.pid!, loop: path.join(dir, "loop-bare.json") },
    next: { base: app.url, pid: app.pid, loop: path.join(dir, "loop-app.json") },
    app: { base: app.url, pid: app.pid, loop: path.join(dir, "loop-app.json") },
  };
  // Warm-up: each route compiles and fills its caches before anything is measured.
  for (const route of routes)
    await runPhase({
      route,
      customers: signedIn.slice(0, 4),
      seconds: 2,
      agent: newAgent(),
      ...target[route],
    });

  const results: { level: number; route: RouteName; result: PhaseResult }[] = [];
  for (const level of levels) {
    for (const route of routes) {
      const tg = target[route];
      await readLoop(tg.pid, tg.loop); // starts the delay histograms over
      await readLoop(model.child.pid!, modelLoop);
      const idleRss = statusBytes(tg.pid, "VmRSS");
      resetTreePeakRss(tg.pid);
      const cpu0 = cpuMs(tg.pid);
      const modelCpu0 = cpuMs(model.child.pid!);
      const agent = newAgent();
      const client0 = process.cpuUsage();
      const result = await runPhase({
        route,
        customers: signedIn.slice(0, level),
        seconds,
        agent,
        ...tg,
      });
      agent.destroy();
      result.serverCpuMs = cpuMs(tg.pid) - cpu0;
      result.modelCpuMs = cpuMs(model.child.pid!) - modelCpu0;
      const client = process.cpuUsage(client0);
      result.clientCpuMs = (client.user + client.system) / 1000;
      result.load = os.loadavg()[0];
      result.idleRssBytes = idleRss;
      result.peakRssBytes = statusBytes(tg.pid, "VmHWM");
      result.loop = await readLoop(tg.pid, tg.loop);
      result.modelLoop = await readLoop(model.child.pid!, modelLoop);
      results.push({ level, route, result });
      log(
        `${level} customers, ${route}: ${result.turns.length} turns, ${result.errors.length} errors, ` +
          `${result.refused} refused; first token p50 ${result.ttft.p50.toFixed(0)} ms`,
      );
      // Let the server settle (lingering saves, the GC) before the next route.
      await new Promise((r) => setTimeout(r, 1500));
    }
  }

  const report: PacedReport = {
    date: new Date().toISOString(),
    machine: machine(),
    command: `npm run bench:paced -- --levels=${levels.join(",")} --seconds=${seconds} --first-token-ms=${pace.firstTokenMs} --words=${pace.words} --words-per-second=${pace.wordsPerSecond}${routes.join(",") !== "bare,next,app" ? ` --routes=${routes.join(",")}` : ""}${serverFlags.length ? ` --server-flags=${serverFlags.join(",")}` : ""}${profile ? " --profile" : ""}`,
    serverCommand: `node ${[...startFlags(), "scripts/start.mjs"].join(" ")}`,
    pace,
    seconds,
    store: `demo + ${STORE.customers} customers, ${STORE.orders} orders`,
    results,
  };
  const markdown = renderPaced(report);
  console.log(`\n${markdown}\n`);
  if (!args.includes("--no-write")) {
    writePaced(path.join(root, "docs/benchmarks.md"), markdown);
    log("results written to docs/benchmarks.md");
  }
  if (results.some((r) => r.result.errors.length)) {
    process.exitCode = 1;
    console.log(`server's last output:\n${app.output().slice(-3000)}`);
  }
} finally {
  for (const stop of stops) await stop();
  for (const c of children) c.kill("SIGTERM");
  await Promise.all(
    children.map((c) =>
      c.exitCode !== null ? null : new Promise((r) => c.once("exit", () => r(null))),
    ),
  );
  fs.rmSync(dir, { recursive: true, force: true });
}

if (profile) {
  const file = mainProfile(profDir);
  console.log(file ? summarizeProfile(file) : `no profile written to ${profDir}`);
}

/** A node child that prints one JSON line when ready; its other output is kept for errors. */
async function spawnJson<T>(
  into: ChildProcess[],
  nodeArgs: string[],
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; value: T }> {
  const child = spawn(process.execPath, nodeArgs, {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  into.push(child);
  let out = "";
  child.stderr?.on("data", (d) => {
    out += d;
  });
  return await new Promise((resolve, reject) => {
    let line = "";
    child.stdout?.on("data", (d) => {
      line += d;
      const nl = line.indexOf("\n");
      if (nl >= 0) {
        try {
          resolve({ child, value: JSON.parse(line.slice(0, nl)) as T });
        } catch {
          reject(new Error(`${nodeArgs.at(-1)}: ${line}${out}`));
        }
      }
    });
    child.once("exit", (code) => reject(new Error(`${nodeArgs.at(-1)} exited ${code}: ${out}`)));
  });
}

/** User + system CPU of a process tree's root so far, in ms (Linux /proc; 0 elsewhere). */
function cpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 (utime, stime), counted from after the command name: indexes 11 and 12.
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/**
 * One process's resident memory (VmRSS) or its peak since the last reset (VmHWM). The server's
 * own process only: the bare server runs under tsx, whose esbuild child is no part of it.
 */
function statusBytes(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(status.match(new RegExp(`^${field}:\\s+(\\d+)`, "m"))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** The probe's event-loop delay since its last reading (and a new start for the next one). */
async function readLoop(pid: number, file: string) {
  fs.rmSync(file, { force: true });
  process.kill(pid, "SIGUSR2");
  for (let i = 0; i < 100 && !fs.existsSync(file); i++) await new Promise((r) => setTimeout(r, 20));
  if (!fs.existsSync(file)) return null;
  return JSON.parse(fs.readFileSync(file, "utf8")) as {
    p50: number;
    p99: number;
    max: number;
    stores?: number;
  };
}
