/**
 * `npm run bench:items [-- --rounds=40 --no-write]`
 *
 * The measure: what naming items costs a confirm. One production server as `npm start` runs it
 * (offline model, its own SQLite file), and in the same minutes, one request at a time, three
 * confirms per round in a rotating order:
 * - **one line**: a return of one T-shirt of the two in a copy of Anna's order 4702;
 * - **exchange**: the trail shoes of the same order for a size bigger (same price: no money
 *   moves; the stock of the new size is reserved by compare-and-set in the confirm);
 * - **whole order**: a return of both items of a copy of Anna's order 7718, today's whole-order
 *   return.
 * Each round is a new customer (a copy of Anna with her orders under fresh numbers), so no
 * confirm finds another's rows. Only the confirm is timed; health requests after each give the
 * server's floor. Ratios are taken in the same run, so the machine's load cancels out.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { HttpCustomer, pendingActionOf } from "./lib/client";
import { machine } from "./lib/machine";
import { writeBetweenMarkers } from "./lib/report";
import { ensureBuild, type Server, startFlags, startServer } from "./lib/server";
import { percentile } from "./lib/stats";

const args = process.argv.slice(2);
const opt = (name: string) =>
  args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) || undefined;
const rounds = Number(opt("rounds") ?? 40);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error("--rounds must be a positive integer");
const WARMUP = 3;
const HEALTH_PER_CONFIRM = 3;
const DIST = ".next-bench";
const root = path.resolve(import.meta.dirname, "..");
const log = (s: string) => console.log(`[bench:items] ${s}`);

type Customer = { email: string; order4702: string; order7718: string };
type Kind = "one line" | "exchange" | "whole order";
const KINDS: Kind[] = ["one line", "exchange", "whole order"];

/**
 * The store, seeded by the app's own data layer in a process of its own (the dialect is fixed
 * when the schema is first loaded): the demo, then one copy of Anna per round, and enough of the
 * bigger shoe size for every round's exchange (the demo keeps its last unit for the race test).
 */
function seed(dbFile: string, count: number): Customer[] {
  const code = `
process.env.DATABASE_PATH = ${JSON.stringify(dbFile)};
process.env.SEED_DEMO = "0";
const { resetEnv } = await import("@/lib/env");
resetEnv();
const { closeDb } = await import("@/db");
const { initDatabase } = await import("@/db/init");
const { seedDemo, seedDemoLikeUser } = await import("@/db/seed");
const { setStock } = await import("@/db/queries/catalogue");
await initDatabase();
await seedDemo();
const out = [];
for (let i = 0; i < ${count}; i++) {
  const email = "items" + i + "@bench.example.com";
  const { orderIds } = await seedDemoLikeUser({ like: "anna", email });
  out.push({ email, order4702: orderIds["4702"], order7718: orderIds["7718"] });
}
await setStock({ variantId: "trail-shoes-43", stock: ${count + 10} });
await closeDb();
console.log("CUSTOMERS " + JSON.stringify(out));`;
  const r = spawnSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "--input-type=module", "-e", code],
    { cwd: root, encoding: "utf8", env: { ...process.env, NODE_ENV: "production" } },
  );
  const line = r.stdout.split("\n").find((l) => l.startsWith("CUSTOMERS "));
  if (r.status !== 0 || !line) throw new Error(`seeding failed:\n${r.stdout}\n${r.stderr}`);
  return JSON.parse(line.slice("CUSTOMERS ".length)) as Customer[];
}

const ask: Record<Kind, (c: Customer) => string> = {
  // Russian on purpose: the offline model's quantity words ("одну") are pinned by its tests.
  "one line": (c) => `Хочу вернуть одну футболку из заказа ${c.order4702}, она бракованная`,
  exchange: (c) => `Please exchange the shoes from ${c.order4702} for a size bigger`,
  "whole order": (c) => `Please return both items from ${c.order7718}, they arrived damaged`,
};

/** What the card must say for the confirm to be the one named: the plan's lines and refund. */
function checkPlan(kind: Kind, action: Record<string, unknown>) {
  const plan = JSON.stringify(action);
  const want: Record<Kind, RegExp> = {
    // One T-shirt of two: its €35.00, nothing else.
    "one line": /"refund":\{"amount":3500,/,
    exchange: /"effect":"exchange_items"/,
    // Both lines: €249.00 + €9.90.
    "whole order": /"refund":\{"amount":25890,/,
  };
  if (!want[kind].test(plan)) throw new Error(`${kind}: unexpected card ${plan.slice(0, 400)}`);
}

const samples: Record<Kind, number[]> = { "one line": [], exchange: [], "whole order": [] };
const health: number[] = [];
const failures: string[] = [];

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const v = await fn();
  return [v, performance.now() - t0];
}

async function oneConfirm(
  server: Server,
  c: HttpCustomer,
  who: Customer,
  kind: Kind,
  record: boolean,
) {
  const chat = await c.newChat();
  const chunks = await c.say(chat, ask[kind](who));
  const action = pendingActionOf(chunks);
  if (!action) throw new Error(`${kind}: no card (${JSON.stringify(chunks).slice(0, 300)})`);
  checkPlan(kind, action as unknown as Record<string, unknown>);
  const [res, ms] = await timed(() => c.decide(action.id, "confirm"));
  const body = (await res.json()) as { action?: { status: string } };
  if (res.status !== 200 || body.action?.status !== "executed")
    throw new Error(`${kind}: confirm ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
  for (let h = 0; h < HEALTH_PER_CONFIRM; h++) {
    const [r, hms] = await timed(() => fetch(`${server.url}/api/health`));
    await r.arrayBuffer();
    if (record) health.push(hms);
  }
  if (record) samples[kind].push(ms);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-bench-items-"));
let server: Server | undefined;
try {
  log(`building into ${DIST} (skipped when up to date)…`);
  ensureBuild(DIST, root);
  const dbFile = path.join(dir, "items.db");
  const customers = seed(dbFile, WARMUP + rounds);
  log(`${customers.length} customers seeded; starting the server`);
  server = await startServer({
    distDir: DIST,
    dbPath: dbFile,
    env: {
      AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE: "100000",
      CHAT_RATE_LIMIT_PER_MINUTE: "10000",
      MAIL_DIR: path.join(dir, "mail"),
    },
  });
  for (let i = 0; i < customers.length; i++) {
    const who = customers[i]!;
    const c = await HttpCustomer.signIn(server.url, who.email);
    // Rotating order: no kind always runs first, after the others' relay work.
    for (let k = 0; k < KINDS.length; k++) {
      const kind = KINDS[(i + k) % KINDS.length]!;
      try {
        await oneConfirm(server, c, who, kind, i >= WARMUP);
      } catch (err) {
        failures.push(err instanceof Error ? err.message : String(err));
      }
    }
  }
} finally {
  await server?.stop("SIGTERM");
  fs.rmSync(dir, { recursive: true, force: true });
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const p = (xs: number[], q: number) => percentile(sorted(xs), q);
const f = (n: number) => (Number.isNaN(n) ? "–" : n < 10 ? n.toFixed(2) : n.toFixed(1));
const x = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : "–");
const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], {
  cwd: root,
  encoding: "utf8",
}).stdout.trim();
const whole50 = p(samples["whole order"], 50);
const lines = [
  `Run ${new Date().toISOString()} on ${machine()}, build ${commit}.`,
  `Command: \`npm run bench:items -- --rounds=${rounds}\`. One server as \`npm start\` runs it (\`node ${[...startFlags(), "scripts/start.mjs"].join(" ")}\`), offline model, SQLite; per round a new customer (a copy of Anna's orders) confirms the three cards in a rotating order (after ${WARMUP} rounds of warm-up), one request at a time, ${HEALTH_PER_CONFIRM} health requests after each confirm.`,
  "",
  "| confirm | n | p50 ms | p95 ms | p50 ÷ health p50 | p50 ÷ whole-order return's |",
  "|---|---:|---:|---:|---:|---:|",
  ...KINDS.map((k) => {
    const c50 = p(samples[k], 50);
    return `| ${k === "one line" ? "return of one line (1 of 2 T-shirts, 4702)" : k === "exchange" ? "exchange (the shoes a size bigger, 4702)" : "return of the whole order (both items, 7718)"} | ${samples[k].length} | ${f(c50)} | ${f(p(samples[k], 95))} | ${x(c50 / p(health, 50))} | ${x(c50 / whole50)} |`;
  }),
  "",
  `Health p50 ${f(p(health, 50))} ms (n ${health.length}). Errors: ${failures.length}.`,
];
if (failures.length) lines.push("", "Failures:", ...failures.slice(0, 5).map((m) => `- ${m}`));
const markdown = lines.join("\n");
console.log(`\n${markdown}\n`);

if (!args.includes("--no-write")) {
  writeBetweenMarkers(path.join(root, "docs/benchmarks.md"), "items", markdown);
  log("results written to docs/benchmarks.md");
}
if (failures.length) process.exitCode = 1;
