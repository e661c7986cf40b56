/**
 * `npm run bench:store [-- --rounds=20]`
 *
 * The measure: what a real store behind Returns Desk costs a customer, and how long a write
 * takes to be applied there. Two production servers at once, each as `npm start` runs it with
 * the offline model, on its own freshly seeded SQLite file (the demo store):
 * - **builtin**: STORE_BACKEND=builtin, the demo orders in our own tables;
 * - **medusa**: STORE_BACKEND=medusa against the real demo Medusa store
 *   (scripts/store-medusa.mjs, started and stopped here), Anna linked to her Medusa customer with
 *   `npm run users -- link`.
 *
 * Each round, in a rotating order over the two, Anna (signed in once per server) asks where her
 * order in transit is, in a new chat (the **status turn**, timed to the end of the stream), then
 * asks to change the delivery address of her processing order, gives the new one, and confirms
 * the card (the **confirm**, timed alone). An address change is what a round repeats, because it
 * can happen again and again on one order; a cancel or a return uses an order up. On the medusa
 * server the round then waits for the relay to apply the change at Medusa (the
 * `store.change_address` effect settled): **confirm → applied**, from the client's confirm request
 * to the effect's `settled_at` (the server's clock, read from its database file; one machine, one
 * clock). Everything is measured in the same minutes, so the ratio is this run's own.
 *
 * The servers use the e2e suite's build (.next), serialized with other builds through
 * /tmp/e2e.lock: a second production build of its own would cost minutes on a 2-core machine.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { HttpCustomer, pendingActionOf } from "./lib/client";
import { machine } from "./lib/machine";
import { ensureBuild, type Server, startServer } from "./lib/server";
import { percentile } from "./lib/stats";

const args = process.argv.slice(2);
const opt = (name: string) =>
  args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) || undefined;
const rounds = Number(opt("rounds") ?? 20);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error("--rounds must be a positive integer");
const WARMUP = 2;
const DIST = ".next";
const root = path.resolve(import.meta.dirname, "..");
const medusaScript = path.join(root, "scripts", "store-medusa.mjs");
const log = (s: string) => console.log(`[bench:store] ${s}`);
const ANNA = "anna@example.com";
/** Two addresses in Anna's country, taken in turn, so each round's change is a real one. */
const ADDRESSES = [
  "Torstraße 1, 3. OG, 10119 Berlin, Germany",
  "Kastanienallee 7, 10435 Berlin, Germany",
];

type Side = {
  name: "builtin" | "medusa";
  env: Record<string, string>;
  dbFile: string;
  /** Anna's order in transit (status turn) and her processing order (address change). */
  statusOrder: string;
  addressOrder: string;
  server?: Server;
  customer?: HttpCustomer;
  status: number[];
  confirm: number[];
  /** Client's confirm request sent → the store.change_address effect's settled_at (ms). */
  applied: number[];
};

function npm(args: string[], env: Record<string, string>) {
  const r = spawnSync("npm", ["run", "-s", ...args], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: "warn", ...env },
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`npm run ${args.join(" ")}: ${r.stdout}\n${r.stderr}`);
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const v = await fn();
  return [v, performance.now() - t0];
}

async function round(side: Side, i: number, record: boolean) {
  const c = side.customer!;
  const [, statusMs] = await timed(async () =>
    c.say(await c.newChat(), `Where is my order ${side.statusOrder}?`),
  );
  const chat = await c.newChat();
  await c.say(chat, `Please change the delivery address of ${side.addressOrder}`);
  const action = pendingActionOf(await c.say(chat, ADDRESSES[i % 2]!));
  if (!action) throw new Error(`${side.name}: no card for ${side.addressOrder} in round ${i}`);
  const sentAt = Date.now();
  const [res, confirmMs] = await timed(() => c.decide(action.id, "confirm"));
  const body = (await res.json()) as { action?: { status: string } };
  if (res.status !== 200 || body.action?.status !== "executed")
    throw new Error(`${side.name}: confirm ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  if (record) {
    side.status.push(statusMs);
    side.confirm.push(confirmMs);
  }
  if (side.name !== "medusa") return;
  const db = new Database(side.dbFile, { readonly: true });
  try {
    const q = db.prepare(
      `SELECT status, settled_at AS settledAt FROM effects
       WHERE action_id = ? AND kind = 'store.change_address'`,
    );
    const deadline = Date.now() + 60_000;
    for (;;) {
      const row = q.get(action.id) as { status: string; settledAt: number | null } | undefined;
      if (row?.settledAt != null) {
        if (row.status !== "succeeded") throw new Error(`medusa: address change ${row.status}`);
        if (record) side.applied.push(row.settledAt - sentAt);
        break;
      }
      if (Date.now() > deadline) throw new Error("medusa: address change not applied in 60 s");
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    db.close();
  }
}

const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p95: percentile(s, 95), n: s.length };
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-bench-store-"));
const started = new Date();
let medusaUp = false;
const sides: Side[] = [];
try {
  log("starting the demo Medusa store…");
  const out = spawnSync(process.execPath, [medusaScript, "start"], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    timeout: 15 * 60_000,
  });
  if (out.status !== 0) throw new Error("the demo Medusa store did not start");
  medusaUp = true;
  const medusa = JSON.parse(out.stdout.trim().split("\n").at(-1)!) as {
    url: string;
    apiKey: string;
    customers: { email: string; storeCustomerId: string }[];
    orders: { displayId: string; customerEmail: string; state: string }[];
  };
  const annas = (state: string) =>
    medusa.orders.filter((o) => o.customerEmail === ANNA && o.state === state);
  sides.push(
    {
      name: "builtin",
      env: {},
      dbFile: path.join(dir, "builtin.db"),
      statusOrder: "8041",
      addressOrder: "3004",
      status: [],
      confirm: [],
      applied: [],
    },
    {
      name: "medusa",
      env: {
        STORE_BACKEND: "medusa",
        MEDUSA_URL: medusa.url,
        MEDUSA_API_KEY: medusa.apiKey,
        MEDUSA_TIMEOUT_MS: "5000",
        EFFECTS_LEASE_SECONDS: "60",
      },
      dbFile: path.join(dir, "medusa.db"),
      statusOrder: annas("shipped")[0]!.displayId,
      addressOrder: annas("processing").at(-1)!.displayId,
      status: [],
      confirm: [],
      applied: [],
    },
  );
  log(`building ${DIST} (skipped when up to date)…`);
  ensureBuild(DIST);
  for (const s of sides) {
    npm(["db:seed"], { DATABASE_PATH: s.dbFile });
    if (s.name === "medusa") {
      const id = medusa.customers.find((c) => c.email === ANNA)!.storeCustomerId;
      npm(["users", "--", "link", "--email", ANNA, "--store-customer", id, "--replace"], {
        DATABASE_PATH: s.dbFile,
      });
    }
    s.server = await startServer({
      distDir: DIST,
      dbPath: s.dbFile,
      env: { SEED_DEMO: "0", CHAT_RATE_LIMIT_PER_MINUTE: "10000", ...s.env },
    });
    s.customer = await HttpCustomer.signIn(s.server.url, ANNA);
    log(`${s.name} at ${s.server.url}`);
  }
  for (let i = 0; i < WARMUP + rounds; i++) {
    const order = i % 2 === 0 ? sides : [...sides].reverse();
    for (const s of order) await round(s, i, i >= WARMUP);
  }
} finally {
  for (const s of sides) await s.server?.stop();
  if (medusaUp) spawnSync(process.execPath, [medusaScript, "stop"], { stdio: "inherit" });
  fs.rmSync(dir, { recursive: true, force: true });
}

const [b, m] = sides as [Side, Side];
const row = (what: string, bx: number[], mx: number[]) => {
  const x = stats(bx);
  const y = stats(mx);
  return `| ${what} | ${ms(x.p50)} / ${ms(x.p95)} | ${ms(y.p50)} / ${ms(y.p95)} | ${(y.p50 / x.p50).toFixed(2)}× / ${(y.p95 / x.p95).toFixed(2)}× |`;
};
const applied = stats(m.applied);
console.log(`
\`npm run bench:store -- --rounds=${rounds}\`, ${started.toISOString().slice(0, 16).replace("T", " ")} UTC, ${machine()}; ${rounds} rounds after ${WARMUP} warm-up, both servers in the same minutes.

| ms, p50 / p95 | builtin | medusa | medusa ÷ builtin |
|---|---|---|---|
${row("status turn (get_order_status, whole stream)", b.status, m.status)}
${row("confirm (change_delivery_address)", b.confirm, m.confirm)}

Confirm → applied at Medusa (\`store.change_address\` settled): p50 ${ms(applied.p50)} ms, p95 ${ms(applied.p95)} ms (n = ${applied.n}).
`);
