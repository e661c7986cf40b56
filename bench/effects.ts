/**
 * `npm run bench:effects [-- --before=/path/to/older/checkout --rounds=40 --no-write]`
 *
 * The measure: what the effects outbox costs a confirm, and how long a refund takes from
 * the confirm to settled. Up to three production servers at once, each as `npm start` runs it
 * with the offline model, each on its own freshly seeded SQLite file (demo + large store):
 * - **ledger**: this checkout, no Stripe key (refunds go to the built-in ledger);
 * - **stripe**: this checkout, STRIPE_SECRET_KEY and STRIPE_API_BASE pointing at the loopback
 *   Stripe server (bench/lib/stripe-server.ts, in this process);
 * - **before** (with --before): another checkout, e.g. the commit before the effects outbox
 *   (`git worktree add ../before <sha>`, node_modules linked); built into its own .next-bench.
 *
 * Each round, in a rotating order over the servers, one customer per server signs in, opens a
 * chat, asks to cancel one of their `processing` orders (a cancel_order card) and confirms it:
 * only the confirm is timed, serially, so it is the confirm's own cost, and every server is
 * measured in the same minutes (the machine is shared). Health requests are timed alongside as
 * each server's floor. Then, on this checkout's servers, the refund's time to settled: from the
 * effect's row (written in the confirm's transaction) to its `settled_at`, both the server's clock,
 * read from the database file; and from the client's confirm request to `settled_at`. A round ends
 * when every effect of the action (the refund and the customer's mails) has settled.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { HttpCustomer, pendingActionOf } from "./lib/client";
import { machine } from "./lib/machine";
import { writeBetweenMarkers } from "./lib/report";
import { ensureBuild, type Server, startFlags, startServer } from "./lib/server";
import { percentile } from "./lib/stats";
import { type StripeServer, startStripeServer } from "./lib/stripe-server";

const args = process.argv.slice(2);
const opt = (name: string) =>
  args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) || undefined;
const rounds = Number(opt("rounds") ?? 40);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error("--rounds must be a positive integer");
const beforeRoot = opt("before") ? path.resolve(opt("before")!) : undefined;
const WARMUP = 3;
const HEALTH_PER_ROUND = 3;
const STORE = { customers: 5000, orders: 20000 };
const DIST = ".next-bench";
const root = path.resolve(import.meta.dirname, "..");
const log = (s: string) => console.log(`[bench:effects] ${s}`);

type Side = {
  name: "before" | "ledger" | "stripe";
  root: string;
  env: Record<string, string>;
  dbFile: string;
  picks: { email: string; orderId: string }[];
  server?: Server;
  confirm: number[];
  health: number[];
  /** Effect row written → settled_at, server clock (ms). */
  settle: number[];
  /** Client's confirm request sent → settled_at (ms). */
  confirmToSettled: number[];
  failures: string[];
};

/** Seeds with the checkout's own data layer (its schema and migrations), in a process of its own. */
function seed(checkout: string, dbFile: string) {
  const code = `const { seedStore } = await import("./bench/lib/seed.ts");
await seedStore(${JSON.stringify(dbFile)}, ${JSON.stringify(STORE)});`;
  const r = spawnSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "--input-type=module", "-e", code],
    { cwd: checkout, encoding: "utf8", env: { ...process.env, NODE_ENV: "production" } },
  );
  if (r.status !== 0) throw new Error(`seeding ${checkout} failed:\n${r.stdout}\n${r.stderr}`);
}

/** Customers of the large store with a four-digit order that can still be cancelled. */
function cancellable(dbFile: string, limit: number) {
  const db = new Database(dbFile, { readonly: true });
  try {
    return db
      .prepare(
        `SELECT u.email AS email, min(o.id) AS orderId FROM orders o JOIN user u ON u.id = o.user_id
         WHERE o.status = 'processing' AND length(o.id) = 4
           AND u.email LIKE 'customer%@bench.example.com'
         GROUP BY u.id, u.email ORDER BY u.email LIMIT ?`,
      )
      .all(limit) as { email: string; orderId: string }[];
  } finally {
    db.close();
  }
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const v = await fn();
  return [v, performance.now() - t0];
}

/** One cancellation on one server: sign in, chat, card, then the timed confirm. */
async function oneConfirm(side: Side, i: number, record: boolean, stripe?: StripeServer) {
  const base = side.server!.url;
  const who = side.picks[i]!;
  const c = await HttpCustomer.signIn(base, who.email);
  const chat = await c.newChat();
  const action = pendingActionOf(
    await c.say(chat, `I ordered it by mistake, please cancel ${who.orderId}`),
  );
  if (!action) throw new Error(`${side.name}: no card for ${who.orderId}`);
  const sentAt = Date.now();
  const [res, ms] = await timed(() => c.decide(action.id, "confirm"));
  const body = (await res.json()) as { action?: { status: string } };
  if (res.status !== 200 || body.action?.status !== "executed")
    throw new Error(`${side.name}: confirm ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
  for (let h = 0; h < HEALTH_PER_ROUND; h++) {
    const [r, hms] = await timed(() => fetch(`${base}/api/health`));
    await r.arrayBuffer();
    if (record) side.health.push(hms);
  }
  if (record) side.confirm.push(ms);
  if (side.name === "before") return;
  // The refund: wait for the relay to settle it, reading the row the relay writes. By its kind:
  // a confirmed cancellation also stores the customer's mail (and the refund's outcome another),
  // and `WHERE action_id = ?` alone would read whichever comes first in (action_id, kind) order.
  const db = new Database(side.dbFile, { readonly: true });
  try {
    const q = db.prepare(
      `SELECT status, created_at AS createdAt, settled_at AS settledAt FROM effects
       WHERE action_id = ? AND kind = 'payment.refund'`,
    );
    const unsettled = db.prepare(
      "SELECT count(*) AS n FROM effects WHERE action_id = ? AND settled_at IS NULL",
    );
    const notSucceeded = db.prepare(
      "SELECT kind, status FROM effects WHERE action_id = ? AND status <> 'succeeded'",
    );
    const deadline = Date.now() + 30_000;
    for (;;) {
      const row = q.get(action.id) as
        | { status: string; createdAt: number; settledAt: number | null }
        | undefined;
      if (row?.settledAt != null) {
        if (row.status !== "succeeded") throw new Error(`${side.name}: refund ${row.status}`);
        if (record) {
          side.settle.push(row.settledAt - row.createdAt);
          side.confirmToSettled.push(row.settledAt - sentAt);
        }
        break;
      }
      if (Date.now() > deadline) throw new Error(`${side.name}: refund not settled in 30 s`);
      await new Promise((r) => setTimeout(r, 2));
    }
    // Then the rest of the action's effects (the mails): the round ends with this server quiet,
    // so its relay's work does not run under the next server's timed confirm.
    while ((unsettled.get(action.id) as { n: number }).n > 0) {
      if (Date.now() > deadline) throw new Error(`${side.name}: effects not settled in 30 s`);
      await new Promise((r) => setTimeout(r, 2));
    }
    const bad = notSucceeded.all(action.id) as { kind: string; status: string }[];
    if (bad.length)
      throw new Error(`${side.name}: ${bad.map((b) => `${b.kind} ${b.status}`).join(", ")}`);
  } finally {
    db.close();
  }
  if (stripe && side.name === "stripe") {
    const refunds = stripe.refunds.filter((r) => r.metadata.action_id === action.id);
    if (refunds.length !== 1) throw new Error(`stripe: ${refunds.length} refunds for one action`);
  }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-bench-effects-"));
const stripe = await startStripeServer();
const wanted: Pick<Side, "name" | "root" | "env">[] = [
  ...(beforeRoot ? [{ name: "before" as const, root: beforeRoot, env: {} }] : []),
  // The customers' mails (file transport, no SMTP_URL) go to the run's own folder, not the checkout's.
  { name: "ledger", root, env: { MAIL_DIR: path.join(dir, "ledger-mail") } },
  {
    name: "stripe",
    root,
    env: {
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_API_BASE: stripe.url,
      MAIL_DIR: path.join(dir, "stripe-mail"),
    },
  },
];
const sides: Side[] = wanted.map((s) => ({
  ...s,
  dbFile: path.join(dir, `${s.name}.db`),
  picks: [],
  confirm: [],
  health: [],
  settle: [],
  confirmToSettled: [],
  failures: [],
}));

try {
  for (const checkout of new Set(sides.map((s) => s.root))) {
    log(`building ${checkout} into ${DIST} (skipped when up to date)…`);
    ensureBuild(DIST, checkout);
  }
  for (const s of sides) {
    seed(s.root, s.dbFile);
    s.picks = cancellable(s.dbFile, WARMUP + rounds);
    if (s.picks.length < WARMUP + rounds)
      throw new Error(`${s.name}: only ${s.picks.length} cancellable orders; lower --rounds`);
  }
  log("stores seeded; starting the servers");
  for (const s of sides)
    s.server = await startServer({
      distDir: DIST,
      dbPath: s.dbFile,
      root: s.root,
      env: { AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE: "100000", ...s.env },
    });
  for (let i = 0; i < WARMUP + rounds; i++) {
    // Rotating order: no server always goes first after the others' work.
    for (let k = 0; k < sides.length; k++) {
      const s = sides[(i + k) % sides.length]!;
      try {
        await oneConfirm(s, i, i >= WARMUP, stripe);
      } catch (err) {
        s.failures.push(err instanceof Error ? err.message : String(err));
      }
    }
  }
} finally {
  await Promise.all(sides.map((s) => s.server?.stop("SIGTERM")));
  await stripe.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const p = (xs: number[], q: number) => percentile(sorted(xs), q);
const f = (n: number) => (Number.isNaN(n) ? "–" : n < 10 ? n.toFixed(2) : n.toFixed(1));
const x = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : "–");
const before = sides.find((s) => s.name === "before");
const commit = (checkout: string) =>
  spawnSync("git", ["rev-parse", "--short", "HEAD"], {
    cwd: checkout,
    encoding: "utf8",
  }).stdout.trim();

const lines: string[] = [];
lines.push(
  `Run ${new Date().toISOString()} on ${machine()}.`,
  `Command: \`npm run bench:effects -- --rounds=${rounds}${beforeRoot ? " --before=<checkout of the commit before the effects merge>" : ""}\`. ` +
    `Servers as \`npm start\` runs them (\`node ${[...startFlags(), "scripts/start.mjs"].join(" ")}\`), offline model, each on its own SQLite file (demo + ${STORE.customers} customers, ${STORE.orders} orders), all running at once; ` +
    `${rounds} cancellations confirmed on each (after ${WARMUP} of warm-up), one request at a time, the servers in rotating order, ${HEALTH_PER_ROUND} health requests after each confirm. ` +
    `Builds: ${sides.map((s) => `${s.name} ${commit(s.root)}`).join(", ")}.`,
  "",
  "| server | confirms | errors | confirm p50 ms | confirm p95 ms | health p50 ms | confirm p50 ÷ health p50 | confirm p50 ÷ before's | refund: row → settled p50 / p95 ms | refund: confirm sent → settled p50 / p95 ms |",
  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
);
const label = {
  before: "before the outbox (no effects: the refund was not an outside call)",
  ledger: "outbox + built-in ledger (default)",
  stripe: "outbox + Stripe (loopback server, real `stripe` SDK)",
};
for (const s of sides) {
  const c50 = p(s.confirm, 50);
  lines.push(
    `| ${label[s.name]} | ${s.confirm.length} | ${s.failures.length} | ${f(c50)} | ${f(p(s.confirm, 95))} | ${f(p(s.health, 50))} | ${x(c50 / p(s.health, 50))} | ${before && s !== before ? x(c50 / p(before.confirm, 50)) : "–"} | ${s.settle.length ? `${f(p(s.settle, 50))} / ${f(p(s.settle, 95))}` : "–"} | ${s.confirmToSettled.length ? `${f(p(s.confirmToSettled, 50))} / ${f(p(s.confirmToSettled, 95))}` : "–"} |`,
  );
}
const failures = sides.flatMap((s) => s.failures.map((m) => `- ${s.name}: ${m}`));
if (failures.length) lines.push("", "Failures:", ...failures.slice(0, 5));
const markdown = lines.join("\n");
console.log(`\n${markdown}\n`);

if (!args.includes("--no-write")) {
  writeBetweenMarkers(path.join(root, "docs/benchmarks.md"), "effects", markdown);
  log("results written to docs/benchmarks.md");
}
if (failures.length) process.exitCode = 1;
