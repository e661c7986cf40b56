/**
 * `npm run bench:audit [-- --events=1000000 --iterations=300 --keep]`
 *
 * Builds a throwaway database (demo + large store + 1,000,000 audit events), then times the
 * audit's real query functions: p50/p95 of the first page and of each filter, against a floor
 * measured in the same run (a primary-key point lookup, the cheapest read SQLite can do), so the
 * ratios mean the same on a fast and a slow machine. Writes docs/benchmarks.md (our section).
 * Runs with `--conditions=react-server` because the query modules import "server-only".
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb, getConnection } from "../db";
import {
  type AuditFilters,
  type AuditKey,
  countAuditEventsByStatus,
  getAuditEvent,
  keyOf,
  listAuditEvents,
} from "../db/queries/audit";
import {
  bumpDaily,
  type DailyBump,
  dailySeries,
  dailyTotals,
  dayOf,
  rebuildAuditCounters,
} from "../db/queries/metrics";
import { writeTransaction } from "../db/queries/tx";
import { seedDemo, seedLarge } from "../db/seed";
import { bucketKey } from "../lib/ai/model-calls";
import { auditCsvStream } from "../lib/audit/export";
import { queryAuditEvents } from "../lib/audit/query";
import { metricsReport } from "../lib/metrics/report";
import { insertAuditEvents, rng } from "./audit-events";
import { fmt, machine, type Timing, time, writeSection } from "./audit-report";

const arg = (name: string, fallback: number) => {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  return hit ? Number(hit.split("=")[1]) : fallback;
};
const EVENTS = arg("events", 1_000_000);
const N = arg("iterations", 300);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-bench-audit-"));
process.env.DATABASE_PATH = path.join(dir, "bench.db");
process.env.SEED_DEMO = "0";
const conn = getConnection();
if (conn.dialect !== "sqlite") throw new Error("bench:audit runs on SQLite (unset DATABASE_URL)");
const client = conn.client;
const seconds = (t: number) => ((performance.now() - t) / 1000).toFixed(1);

let t = performance.now();
await seedDemo();
const store = await seedLarge();
const seedTime = seconds(t);
const users = (client.prepare("SELECT id FROM user").all() as { id: string }[]).map((u) => u.id);
const now = Date.now();
t = performance.now();
insertAuditEvents(client, {
  events: EVENTS,
  users,
  chats: Math.ceil(EVENTS / 6),
  now,
  spanDays: 90,
});
const insertTime = (performance.now() - t) / 1000;
// The metrics page reads the daily counters the writers keep. These events were bulk-inserted
// past the writer, so count them the way migration 0006 does, and add the turns that would
// have made them (one turn per three events, the shape of insertAuditEvents).
t = performance.now();
await rebuildAuditCounters();
const turnRandom = rng(11);
const turnBumps: DailyBump[] = [];
const turnsPerDay = Math.ceil(EVENTS / 3 / 90);
for (let d = dayOf(now) - 90; d <= dayOf(now); d++) {
  turnBumps.push(
    { day: d, name: "turn", n: turnsPerDay },
    { day: d, name: "turn.chat_start", n: Math.ceil(turnsPerDay / 2) },
    { day: d, name: "turn.tools", n: Math.ceil(turnsPerDay * 0.8) },
    { day: d, name: "turn.input_tokens", n: turnsPerDay * 900 },
    { day: d, name: "turn.output_tokens", n: turnsPerDay * 60 },
    { day: d, name: "turn.model", key: "openai/gpt-4.1-mini support-v1", n: turnsPerDay },
    { day: d, name: "turn.error", key: "model_error", n: Math.ceil(turnsPerDay / 200) },
    { day: d, name: "turn.tool", key: "get_order_status", n: turnsPerDay },
    { day: d, name: "turn.tool", key: "create_return_request", n: Math.ceil(turnsPerDay / 2) },
  );
  for (let i = 0; i < 40; i++) {
    const latency = 200 * 20 ** turnRandom();
    turnBumps.push({ day: d, name: "turn.latency", key: bucketKey(latency), n: 25 });
    turnBumps.push({ day: d, name: "turn.ttft", key: bucketKey(latency / 4), n: 25 });
  }
}
await writeTransaction(() => bumpDaily(turnBumps));
const rollupTime = (performance.now() - t) / 1000;
const rollupRows = (client.prepare("select count(*) n from metrics_daily").get() as { n: number })
  .n;
client.pragma("wal_checkpoint(TRUNCATE)");
console.log(
  `seeded ${store.customers} customers, ${store.orders} orders in ${seedTime} s; ${EVENTS} events in ${insertTime.toFixed(1)} s`,
);

const r = rng(7);
const anyId = () => 1 + Math.floor(r() * EVENTS);
const keys: AuditKey[] = [];
for (let i = 0; i < 500; i++) keys.push(keyOf((await getAuditEvent({ id: anyId() }))!));
const page = (filters: AuditFilters, before?: AuditKey) => () =>
  listAuditEvents({ filters, before, limit: 50 });
const ago = (days: number) => new Date(now - days * DAY);

type Case = { name: string; run: (i: number) => unknown };
const cases: Case[] = [
  { name: "first page, no filter (newest 50)", run: page({}) },
  {
    name: "a page deep in the table (keyset cursor)",
    run: (i) => page({}, keys[Math.abs(i) % keys.length])(),
  },
  { name: "status=stale (rare)", run: page({ status: "stale" }) },
  { name: "status=success (common)", run: page({ status: "success" }) },
  { name: "tool=create_return_request", run: page({ tool: "create_return_request" }) },
  { name: "tool=run_shell (unknown tool, rare)", run: page({ tool: "run_shell" }) },
  {
    name: "chatId (random chat)",
    run: () => page({ chatId: `chat-${Math.floor(r() * (EVENTS / 6))}` })(),
  },
  {
    name: "userId (random customer)",
    run: () => page({ userId: users[Math.floor(r() * users.length)] })(),
  },
  { name: "from/to: last 24 hours", run: page({ from: ago(1), to: ago(0) }) },
  { name: "from/to: one day, 30 days ago", run: page({ from: ago(31), to: ago(30) }) },
  { name: "from/to: 80 days wide", run: page({ from: ago(85), to: ago(5) }) },
  { name: "to only: older than 60 days", run: page({ to: ago(60) }) },
  { name: "status=rejected + last 7 days", run: page({ status: "rejected", from: ago(7) }) },
  {
    name: "userId + status=success",
    run: () => page({ userId: users[Math.floor(r() * users.length)], status: "success" })(),
  },
  {
    name: "chart: counts by status, last hour",
    run: () => countAuditEventsByStatus({ from: new Date(now - HOUR), to: ago(0) }),
  },
  {
    name: "chart: counts by status, 7 days",
    run: () => countAuditEventsByStatus({ from: ago(7), to: ago(0) }),
  },
  {
    name: "chart: counts by status, 90 days",
    run: () => countAuditEventsByStatus({ from: ago(90), to: ago(0) }),
  },
  {
    name: "metrics page: whole report, 7 days",
    run: () => metricsReport({ fromDay: dayOf(now) - 6, toDay: dayOf(now) + 1 }),
  },
  {
    name: "metrics page: whole report, 90 days",
    run: () => metricsReport({ fromDay: dayOf(now) - 89, toDay: dayOf(now) + 1 }),
  },
  {
    name: "metrics: counters summed over 90 days (one query)",
    run: () => dailyTotals({ fromDay: dayOf(now) - 89, toDay: dayOf(now) + 1 }),
  },
  {
    name: "metrics: day series over 90 days (one query)",
    run: () =>
      dailySeries({
        fromDay: dayOf(now) - 89,
        toDay: dayOf(now) + 1,
        names: ["turn", "turn.error", "action.confirmation_required", "action.success"],
      }),
  },
  {
    name: "GET /api/audit logic (parse, query, JSON)",
    run: async () => JSON.stringify(await queryAuditEvents(new URLSearchParams("limit=50"))),
  },
];

const COUNTED = ["audit_events", "metrics_daily", "audit_status_counts"];

/** The plan of every statement a case runs against those tables (driver-level capture). */
async function plansOf(run: () => unknown): Promise<string[]> {
  const seen: string[] = [];
  const prepare = client.prepare.bind(client);
  client.prepare = ((sql: string) => {
    seen.push(sql);
    return prepare(sql);
  }) as typeof client.prepare;
  try {
    await run();
  } finally {
    client.prepare = prepare as typeof client.prepare;
  }
  // Each statement's plan lines, so a sort is judged by the table its statement reads.
  const plans = seen
    .filter((s) => COUNTED.some((t) => s.includes(t)))
    .map((s) => {
      const params = Array.from({ length: (s.match(/\?/g) ?? []).length }, () => null);
      const details = (
        client.prepare(`EXPLAIN QUERY PLAN ${s}`).all(...params) as { detail: string }[]
      ).map((p) => p.detail);
      return { audit: s.includes("audit_events"), details };
    });
  const lines = plans.flatMap((p) => p.details);
  for (const p of plans)
    for (const d of p.details) {
      if (/^SCAN (audit_events|metrics_daily|audit_status_counts)\b/.test(d)) scans.push(d);
      // The metrics queries group a few hundred counter rows; that sort is not a regression.
      if (p.audit && d.includes("TEMP B-TREE")) sorts.push(d);
    }
  const mine = lines.filter((d) => COUNTED.some((t) => d.includes(t)));
  return [
    ...new Set(
      mine.map((d) =>
        d
          .replace(/^(SEARCH|SCAN) audit_events USING /, "")
          .replace(/^SEARCH (metrics_daily|audit_status_counts) USING /, "$1: "),
      ),
    ),
  ];
}
const scans: string[] = [];
const sorts: string[] = [];

const floor = await time(() => getAuditEvent({ id: anyId() }), N);
const results: { name: string; timing: Timing; plan: string[] }[] = [];
for (const c of cases)
  results.push({ name: c.name, timing: await time(c.run, N), plan: await plansOf(() => c.run(0)) });

t = performance.now();
let bytes = 0;
const reader = auditCsvStream({ status: "business_error" }).getReader();
for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
  bytes += chunk.value.byteLength;
const exportTime = (performance.now() - t) / 1000;
const exportRows = (
  await countAuditEventsByStatus({
    from: new Date(0),
    to: new Date(now + DAY),
  })
).business_error;

const sqlite = (client.prepare("select sqlite_version() v").get() as { v: string }).v;
const chartRows = (
  client.prepare("select count(*) n from audit_status_counts").get() as { n: number }
).n;
const charts = results
  .filter((r) => r.name.startsWith("chart: "))
  .map((r) => ({
    range: r.name.replace(/^chart: counts by status, /, ""),
    ratio: r.timing.p50 / floor.p50,
  }));
const chartRatios = charts.map((c) => `${c.range} ${c.ratio.toFixed(1)}×`).join(", ");
const missed = charts.filter((c) => c.ratio > 10);
const chartVerdict =
  missed.length === 0
    ? "met for each range measured"
    : `missed for ${missed.map((c) => `${c.range} (${c.ratio.toFixed(1)}×)`).join(", ")}`;
const rows = results.map(
  ({ name, timing, plan }) =>
    `| ${name} | ${fmt(timing.p50)} | ${fmt(timing.p95)} | ${(timing.p50 / floor.p50).toFixed(1)}× | ${(timing.p95 / floor.p95).toFixed(1)}× | ${plan.map((p) => `\`${p}\``).join("<br>")} |`,
);
const markdown = `## Audit queries (\`npm run bench:audit\`)

Run ${new Date(now).toISOString()} on ${machine(sqlite)}.
Database: demo store + large store (${store.customers} customers, ${store.orders} orders, seeded in ${seedTime} s) + **${EVENTS.toLocaleString("en-US")} audit events** over 90 days
(bulk insert: ${insertTime.toFixed(1)} s, ${Math.round(EVENTS / insertTime).toLocaleString("en-US")} rows/s, one prepared statement, 50,000 rows per transaction).
Each query: ${N} timed calls after 20 warm-up calls, in one process, page size 50. Times in milliseconds.

**Floor** (primary-key point lookup \`SELECT … WHERE id = ?\`, same run): p50 ${fmt(floor.p50)} ms, p95 ${fmt(floor.p95)} ms.
The ratios compare each query with that floor, which makes them comparable across machines.

| query | p50 ms | p95 ms | p50 / floor | p95 / floor | plan (EXPLAIN QUERY PLAN on audit_events / metrics_daily / audit_status_counts) |
|---|---:|---:|---:|---:|---|
${rows.join("\n")}

CSV export (\`auditCsvStream\`, keyset pages of 1,000, read to the end): ${exportRows.toLocaleString("en-US")} rows with status=business_error, ${(bytes / 2 ** 20).toFixed(1)} MiB in ${exportTime.toFixed(2)} s (${Math.round(exportRows / exportTime).toLocaleString("en-US")} rows/s).

${
  scans.length + sorts.length === 0
    ? "Every query above reads one index range already in (at, id) order: no plan line is a SCAN of audit_events and none sorts (no TEMP B-TREE)."
    : `**Plan regressions:** ${[...scans, ...sorts].join("; ")}`
}
The status chart is one statement. The whole 30-day, day and hour buckets inside its range are summed from
\`audit_status_counts\` (one row per bucket, one column per status, bumped by the audit writer in the event's own
transaction; ${chartRows.toLocaleString("en-US")} rows for these 90 days), and only the partial hours at its two edges are counted on the
(status, at) index, one count per status, at most an hour of events each. Whatever its length, a range reads at
most 2 × 29 day rows, 2 × 23 hour rows and one row per 30 days. p50 against the floor: ${chartRatios}; the goal asks
for 10× or less at 1,000,000 events: ${chartVerdict}. Before these buckets (2026-11-30, this bench) the chart summed
\`metrics_daily\` for whole days and counted the partial days at its edges, 21 statements in a read transaction: 15× at 7 days, 22× at
90 days. PostgreSQL is not covered by this bench; a one-off check the same evening (1,000,000 generated events over
90 days, the same query function, its floor a pooled primary-key lookup) gave 3.4× at 7 days and 3.8× at 90 days,
against 14× and 15× before; about 0.9 ms of each call there is planning the statement.

The staff metrics page (\`/audit/metrics\`) reads only \`metrics_daily\`, the per-day counters the audit and turn
writers keep in the transaction of the row they count: ${rollupRows.toLocaleString("en-US")} counter rows for these 90 days
(these and the chart's counters rebuilt from the million events in ${rollupTime.toFixed(1)} s, as migrations 0006 and 0010 do for an
existing database). Its cost follows the number of days and counters shown, not the number of events: compare the
7- and 90-day reports. The 90-day report is the dearest row: summing every counter of every day grouped by counter
(a sort of all ${rollupRows.toLocaleString("en-US")} rows) and the day series (one row per day and series) make most of it. A 30-day level in
\`metrics_daily\`, as the chart has, would cut the sum (2.5 ms to 1.0 ms for this range on a copy of this database)
but not the series, and every counter writer, the chat turn included, would upsert twice as many rows; not done.
`;
writeSection(markdown);
console.log(markdown);
await closeDb();
if (!process.argv.includes("--keep")) fs.rmSync(dir, { recursive: true, force: true });
else console.log(`kept ${process.env.DATABASE_PATH}`);
