/**
 * `npm run bench:guests [-- --tries=50 --no-write]`
 *
 * The measure: whether `POST /api/guest/verification` takes the same time for an order placed
 * with the given e-mail (a code is mailed) as for an order that does not exist (nothing is
 * mailed). The answer is the same on both paths (202 `{"sent": true}`); its time must not tell
 * them apart either, beyond the noise of the same kind of request.
 *
 * One production server as `npm start` runs it, offline model, on a freshly seeded SQLite file
 * (the demo store, plus one guest order per "exists" try, each a copy of 5501 placed by
 * lena@example.org), mail to a file folder of the run's own (the embedded default). Each try is a
 * fresh guest session (`POST /api/guest/session`) from an address of its own (TRUST_PROXY=1 and
 * X-Forwarded-For, as behind a proxy of ours), for an order of its own, so no limit (per session,
 * per address, per order) is reached; only the server-wide cap on new guest sessions is raised,
 * through its variable (EMBED_GUEST_SESSIONS_PER_MINUTE), for this run. The two kinds alternate,
 * which one goes first swapping every pair, and only the verification request is timed, serially.
 * The noise: how far the p50 of the first half of one kind's tries is from the p50 of its second
 * half, the larger of the two kinds.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { machine } from "./lib/machine";
import { writeBetweenMarkers } from "./lib/report";
import { ensureBuild, startFlags, startServer } from "./lib/server";
import { percentile } from "./lib/stats";

const args = process.argv.slice(2);
const opt = (name: string) =>
  args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) || undefined;
const tries = Number(opt("tries") ?? 50);
if (!Number.isInteger(tries) || tries < 4) throw new Error("--tries must be an integer ≥ 4");
const WARMUP = 5;
/** After every timed request, so the matched path's mail (not awaited) is written before the next. */
const SETTLE_MS = 40;
const DIST = ".next-bench";
const EMAIL = "lena@example.org";
const TEMPLATE_ORDER = "5501";
const root = path.resolve(import.meta.dirname, "..");
const log = (s: string) => console.log(`[bench:guests] ${s}`);

/** Seeds with the checkout's own data layer, in a process of its own (as bench:effects does). */
function seed(dbFile: string) {
  const code = `const { seedStore } = await import("./bench/lib/seed.ts");
await seedStore(${JSON.stringify(dbFile)}, { customers: 10, orders: 40 });`;
  const r = spawnSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "--input-type=module", "-e", code],
    { cwd: root, encoding: "utf8", env: { ...process.env, NODE_ENV: "production" } },
  );
  if (r.status !== 0) throw new Error(`seeding failed:\n${r.stdout}\n${r.stderr}`);
}

/**
 * `n` guest orders, copies of the demo's 5501 under new numbers, and `n` numbers no order has.
 * Five digits from 70000 and 60000: the demo's and the generated store's numbers are shorter.
 */
function orders(dbFile: string, n: number) {
  const db = new Database(dbFile);
  try {
    const cols = (db.prepare("PRAGMA table_info(orders)").all() as { name: string }[]).map(
      (c) => c.name,
    );
    const insert = db.prepare(
      `INSERT INTO orders (${cols.join(", ")}) SELECT ${cols
        .map((c) => (c === "id" ? "?" : c))
        .join(", ")} FROM orders WHERE id = ?`,
    );
    const exists = db.prepare("SELECT count(*) AS n FROM orders WHERE id = ?");
    const present: string[] = [];
    const missing: string[] = [];
    db.transaction(() => {
      for (let i = 0; i < n; i++) {
        const id = String(70000 + i);
        if (insert.run(id, TEMPLATE_ORDER).changes !== 1) throw new Error(`no copy ${id}`);
        present.push(id);
        const none = String(60000 + i);
        if ((exists.get(none) as { n: number }).n !== 0) throw new Error(`${none} exists`);
        missing.push(none);
      }
    })();
    const email = db.prepare("SELECT email FROM orders WHERE id = ?").get(TEMPLATE_ORDER) as {
      email: string | null;
    };
    if (email?.email !== EMAIL) throw new Error(`${TEMPLATE_ORDER} is not ${EMAIL}'s guest order`);
    return { present, missing };
  } finally {
    db.close();
  }
}

type Kind = "exists" | "missing";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-bench-guests-"));
const dbFile = path.join(dir, "store.db");
const mailDir = path.join(dir, "mail");
const times: Record<Kind, number[]> = { exists: [], missing: [] };
const health: number[] = [];
const failures: string[] = [];
const errors: Record<Kind, number> = { exists: 0, missing: 0 };
let mailsExpected = 0;
let mails = 0;

/** One try: a fresh guest session from an address of its own, then the timed request. */
async function oneTry(base: string, kind: Kind, orderId: string, n: number, record: boolean) {
  const xff = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  const headers = { "content-type": "application/json", origin: base, "x-forwarded-for": xff };
  const s = await fetch(`${base}/api/guest/session`, {
    method: "POST",
    headers,
    body: JSON.stringify({ locale: "en" }),
  });
  await s.arrayBuffer();
  const cookie = s.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (s.status !== 200 || !cookie) throw new Error(`guest session: ${s.status}`);
  const body = JSON.stringify({ orderId, email: EMAIL, locale: "en" });
  const t0 = performance.now();
  const r = await fetch(`${base}/api/guest/verification`, {
    method: "POST",
    headers: { ...headers, cookie },
    body,
  });
  const text = await r.text();
  const ms = performance.now() - t0;
  if (r.status !== 202 || text !== JSON.stringify({ sent: true }))
    throw new Error(`${kind}: ${r.status} ${text.slice(0, 200)}`);
  if (kind === "exists") mailsExpected++;
  await new Promise((res) => setTimeout(res, SETTLE_MS));
  const h0 = performance.now();
  const h = await fetch(`${base}/api/health`);
  await h.arrayBuffer();
  if (record) {
    times[kind].push(ms);
    health.push(performance.now() - h0);
  }
}

const total = WARMUP + tries;
let server: Awaited<ReturnType<typeof startServer>> | undefined;
try {
  log(`building into ${DIST} (skipped when up to date)…`);
  ensureBuild(DIST);
  seed(dbFile);
  const ids = orders(dbFile, total);
  server = await startServer({
    distDir: DIST,
    dbPath: dbFile,
    env: { TRUST_PROXY: "1", EMBED_GUEST_SESSIONS_PER_MINUTE: "100000", MAIL_DIR: mailDir },
  });
  log(`server up; ${WARMUP} warm-up pairs, then ${tries} tries of each kind`);
  let n = 1;
  for (let i = 0; i < total; i++) {
    const pair: [Kind, string][] = [
      ["exists", ids.present[i]!],
      ["missing", ids.missing[i]!],
    ];
    // Which kind goes first swaps every pair: neither always follows the other's work.
    if (i % 2 === 1) pair.reverse();
    for (const [kind, orderId] of pair) {
      try {
        await oneTry(server.url, kind, orderId, n++, i >= WARMUP);
      } catch (err) {
        errors[kind]++;
        failures.push(err instanceof Error ? err.message : String(err));
      }
    }
  }
  // Every matched try mailed its code, and only those: the file transport's .eml files.
  const deadline = Date.now() + 10_000;
  const count = () =>
    fs.existsSync(mailDir)
      ? fs.readdirSync(mailDir, { recursive: true }).filter((f) => String(f).endsWith(".eml"))
          .length
      : 0;
  while (count() < mailsExpected && Date.now() < deadline)
    await new Promise((res) => setTimeout(res, 50));
  mails = count();
  if (mails !== mailsExpected)
    failures.push(`${mails} mails written for ${mailsExpected} matched requests`);
} finally {
  await server?.stop("SIGTERM");
  fs.rmSync(dir, { recursive: true, force: true });
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const p = (xs: number[], q: number) => percentile(sorted(xs), q);
const f = (v: number) => (Number.isNaN(v) ? "–" : v.toFixed(2));
const halves = (xs: number[]) => [xs.slice(0, xs.length >> 1), xs.slice(xs.length >> 1)] as const;
const halfGap = (xs: number[]) => {
  const [a, b] = halves(xs);
  return Math.abs(p(a, 50) - p(b, 50));
};
const diff50 = p(times.exists, 50) - p(times.missing, 50);
const diff95 = p(times.exists, 95) - p(times.missing, 95);
const noise = Math.max(halfGap(times.exists), halfGap(times.missing));
const label: Record<Kind, string> = {
  exists: `order exists, placed with this e-mail (code stored and mailed)`,
  missing: "order does not exist (code stored, nothing mailed)",
};
const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], {
  cwd: root,
  encoding: "utf8",
}).stdout.trim();

const lines: string[] = [
  `Run ${new Date().toISOString()} on ${machine()}, build ${commit}.`,
  `Command: \`npm run bench:guests -- --tries=${tries}\`. One server as \`npm start\` runs it (\`node ${[...startFlags(), "scripts/start.mjs"].join(" ")}\`), offline model, SQLite (demo store + ${total} copies of guest order ${TEMPLATE_ORDER}), mail to .eml files (no SMTP_URL). ` +
    `${tries} tries of each kind after ${WARMUP} pairs of warm-up, alternating (which goes first swaps every pair), one request at a time, each from a fresh guest session and an address of its own, for an order of its own; ${SETTLE_MS} ms and a health request after each. Only \`POST /api/guest/verification\` is timed (request sent → body read).`,
  "",
  "| path | tries | errors | p50 ms | p95 ms | first half p50 ms | second half p50 ms |",
  "|---|---:|---:|---:|---:|---:|---:|",
];
for (const kind of ["exists", "missing"] as const) {
  const [a, b] = halves(times[kind]);
  lines.push(
    `| ${label[kind]} | ${times[kind].length} | ${errors[kind]} | ${f(p(times[kind], 50))} | ${f(p(times[kind], 95))} | ${f(p(a, 50))} | ${f(p(b, 50))} |`,
  );
}
lines.push(
  "",
  `**Difference** (exists − missing): p50 ${f(diff50)} ms, p95 ${f(diff95)} ms. ` +
    `**Noise** (the larger gap between the two halves' p50 of one kind): ${f(noise)} ms. ` +
    `${Math.abs(diff50) <= noise ? "The p50 difference is within the noise." : "The p50 difference is larger than the noise."} ` +
    `Floor: \`GET /api/health\` p50 ${f(p(health, 50))} ms. Mails written: ${mails} for ${mailsExpected} matched requests (warm-up included), none for the others. Errors: ${failures.length}.`,
);
if (failures.length) lines.push("", "Failures:", ...failures.slice(0, 5).map((m) => `- ${m}`));
const markdown = lines.join("\n");
console.log(`\n${markdown}\n`);

if (!args.includes("--no-write")) {
  writeBetweenMarkers(path.join(root, "docs/benchmarks.md"), "guests", markdown);
  log("results written to docs/benchmarks.md");
}
if (failures.length) process.exitCode = 1;
