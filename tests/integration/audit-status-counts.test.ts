/**
 * The audit status chart's counts against the events themselves, on both dialects. The events go
 * through the real audit writer, so the counters read (audit_status_counts: 30 days, days,
 * hours) are the ones it keeps; nothing rebuilds them here. A missing or wrong bump shows up as a
 * wrong count for any range that holds a whole bucket. The ranges end on bucket boundaries, inside
 * hours full of events (so the partial hours count), and at random instants. The migration's
 * backfill must give the same counters as the writer.
 */
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { rng } from "@/bench/audit-events";
import { execute, getDb, sql } from "@/db";
import { countAuditEventsByStatus, planStatusCounts, type StatusCounts } from "@/db/queries/audit";
import { insertAuditEvent } from "@/db/queries/audit-write";
import { HOUR_MS, rebuildAuditCounters } from "@/db/queries/metrics";
import {
  AUDIT_COUNT_SPANS,
  AUDIT_STATUSES,
  type AuditStatus,
  auditStatusCounts,
} from "@/db/schema";
import { onPostgres, useTestDatabase } from "../helpers/db";

const DAY_MS = 24 * HOUR_MS;
const SPAN_30D = 30 * DAY_MS;
// Inside a 30-day bucket, so the 70 days below cover one whole such bucket and parts of two more.
const T0 = Date.parse("2026-01-10T00:00:00.000Z");
const SPREAD = 70 * DAY_MS;

type Written = { at: number; status: AuditStatus };
const written: Written[] = [];
/** Hours with many events, where the test puts range edges. */
const denseHours: number[] = [];

function expectedCounts(from: number, to: number): StatusCounts {
  const counts = Object.fromEntries(AUDIT_STATUSES.map((s) => [s, 0])) as StatusCounts;
  for (const e of written) if (e.at >= from && e.at < to) counts[e.status] += 1;
  return counts;
}

async function counterRows() {
  const c = auditStatusCounts;
  return getDb().select().from(c).orderBy(c.spanHours, c.bucket);
}

describe("audit status chart counts (countAuditEventsByStatus)", () => {
  beforeAll(async () => {
    await useTestDatabase({ seed: false });
    const r = rng(14);
    // The statuses the backfill migration knows: the approval ones (awaiting_approval,
    // approval_rejected) came with a later migration, so no event of theirs predates its column,
    // and the backfill test below replays the old migration.
    const known = AUDIT_STATUSES.filter(
      (s) => s !== "awaiting_approval" && s !== "approval_rejected",
    );
    const pick = () => known[Math.floor(r() * known.length)]!;
    const times: number[] = [];
    for (let i = 0; i < 240; i++) times.push(T0 + Math.floor(r() * SPREAD));
    // A few crowded hours, one of them the first hour of a 30-day bucket and one the last.
    const firstOf30 = Math.ceil(T0 / SPAN_30D) * SPAN_30D;
    denseHours.push(
      firstOf30,
      firstOf30 - HOUR_MS,
      T0 + 9 * DAY_MS + 13 * HOUR_MS,
      T0 + 40 * DAY_MS + 23 * HOUR_MS,
      T0 + 61 * DAY_MS,
    );
    for (const hour of denseHours)
      for (let i = 0; i < 30; i++) times.push(hour + Math.floor(r() * HOUR_MS));
    // Events on exact boundaries, where an off-by-one would show.
    times.push(firstOf30, firstOf30 - 1, T0 + 5 * DAY_MS, T0 + 5 * DAY_MS + HOUR_MS - 1);
    // Not in time order, as when a writer stamps an expiry at its deadline.
    times.sort(() => r() - 0.5);
    for (const at of times) {
      const status = pick();
      await insertAuditEvent({ at: new Date(at), status, tool: "get_order_status" });
      written.push({ at, status });
    }
  });

  async function check(from: number, to: number) {
    const got = await countAuditEventsByStatus({ from: new Date(from), to: new Date(to) });
    expect(got, `[${new Date(from).toISOString()}, ${new Date(to).toISOString()})`).toEqual(
      expectedCounts(from, to),
    );
  }

  it("is exact over whole buckets of every span, with edges inside crowded hours", async () => {
    const [a, b, c, d, e] = denseHours as [number, number, number, number, number];
    const cases: [number, number][] = [
      // Everything, and more than everything.
      [T0 - SPAN_30D, T0 + SPREAD + SPAN_30D],
      [0, T0 + 365 * DAY_MS],
      // Across a 30-day bucket, days and hours on both sides, edges mid-hour.
      [c + 17 * 60_000 + 123, d + 41 * 60_000 + 7],
      [c + 59 * 60_000, e + 1],
      // Within one crowded hour; across two crowded hours at a 30-day boundary.
      [a + 5 * 60_000, a + 50 * 60_000],
      [b + 30 * 60_000 + 1, a + 30 * 60_000 - 1],
      // Exactly on bucket boundaries.
      [a, a + HOUR_MS],
      [a - DAY_MS, a + DAY_MS],
      [a, a + SPAN_30D],
      [b, a],
      // Events sit on these instants.
      [a - 1, a],
      [a - 1, a + 1],
      [T0 + 5 * DAY_MS, T0 + 5 * DAY_MS + HOUR_MS - 1],
    ];
    for (const [from, to] of cases) await check(from, to);
    // The cases do read every span of counters and partial hours at both edges.
    const plans = cases.map(([from, to]) => planStatusCounts(from, to));
    for (const span of AUDIT_COUNT_SPANS)
      expect(plans.some((p) => p.buckets.some((x) => x.spanHours === span))).toBe(true);
    expect(plans.some((p) => p.events.length === 2 && p.buckets.length > 0)).toBe(true);
  });

  it("is exact at random instants", async () => {
    const r = rng(99);
    for (let i = 0; i < 40; i++) {
      const x = T0 - DAY_MS + Math.floor(r() * (SPREAD + 2 * DAY_MS));
      const y = T0 - DAY_MS + Math.floor(r() * (SPREAD + 2 * DAY_MS));
      await check(Math.min(x, y), Math.max(x, y));
    }
  });

  it("gives zeros for an empty, reversed or invalid range", async () => {
    const zero = expectedCounts(0, 0);
    const at = new Date(denseHours[0]!);
    expect(await countAuditEventsByStatus({ from: at, to: at })).toEqual(zero);
    expect(
      await countAuditEventsByStatus({ from: at, to: new Date(at.getTime() - DAY_MS) }),
    ).toEqual(zero);
    expect(await countAuditEventsByStatus({ from: new Date(Number.NaN), to: at })).toEqual(zero);
  });

  it("reads the counters for whole buckets: a changed counter changes the count", async () => {
    const [a] = denseHours as [number];
    const before = await countAuditEventsByStatus({
      from: new Date(a - DAY_MS),
      to: new Date(a + DAY_MS),
    });
    const c = auditStatusCounts;
    await execute(
      sql`UPDATE ${c} SET ${sql.identifier("stale")} = ${sql.identifier("stale")} + 1000
          WHERE ${c.spanHours} = 24 AND ${c.bucket} = ${a / DAY_MS}`,
    );
    try {
      const after = await countAuditEventsByStatus({
        from: new Date(a - DAY_MS),
        to: new Date(a + DAY_MS),
      });
      expect(after).toEqual({ ...before, stale: before.stale + 1000 });
    } finally {
      await execute(
        sql`UPDATE ${c} SET ${sql.identifier("stale")} = ${sql.identifier("stale")} - 1000
            WHERE ${c.spanHours} = 24 AND ${c.bucket} = ${a / DAY_MS}`,
      );
    }
  });

  it("the migration's backfill and the bulk rebuild give the writer's counters", async () => {
    const kept = await counterRows();
    expect(kept.length).toBeGreaterThan(0);
    const dir = path.join(process.cwd(), "db", "migrations", onPostgres() ? "pg" : "sqlite");
    const file = fs.readdirSync(dir).find((f) => f.endsWith("_backfill_audit_status_counts.sql"));
    expect(file).toBeDefined();
    await execute(sql`DELETE FROM ${auditStatusCounts}`);
    for (const statement of fs
      .readFileSync(path.join(dir, file!), "utf8")
      .split("--> statement-breakpoint"))
      await execute(sql.raw(statement));
    expect(await counterRows()).toEqual(kept);
    await rebuildAuditCounters();
    expect(await counterRows()).toEqual(kept);
  });
});

describe("planStatusCounts", () => {
  it("tiles any range exactly, with whole buckets and under an hour of events at each edge", () => {
    const instant = fc.integer({ min: 0, max: 4_000_000_000_000 });
    fc.assert(
      fc.property(instant, instant, (x, y) => {
        const [from, to] = x <= y ? [x, y] : [y, x];
        const plan = planStatusCounts(from, to);
        const pieces = [
          ...plan.buckets.map((b) => {
            const span = b.spanHours * HOUR_MS;
            expect(b.end).toBeGreaterThan(b.first);
            return { from: b.first * span, to: b.end * span };
          }),
          ...plan.events,
        ].sort((p, q) => p.from - q.from);
        let at = from;
        for (const p of pieces) {
          expect(p.from).toBe(at);
          at = p.to;
        }
        expect(at).toBe(to);
        expect(plan.events.length).toBeLessThanOrEqual(2);
        for (const e of plan.events) expect(e.to - e.from).toBeLessThan(HOUR_MS);
        // What the chart reads, whatever the range: the 30-day rows and at most 2 x 29 days and
        // 2 x 23 hours.
        const rows = (span: number) =>
          plan.buckets.filter((b) => b.spanHours === span).reduce((n, b) => n + b.end - b.first, 0);
        expect(rows(24)).toBeLessThanOrEqual(2 * 29 + (rows(720) === 0 ? 1 : 0));
        expect(rows(1)).toBeLessThanOrEqual(2 * 23 + (rows(24) + rows(720) === 0 ? 1 : 0));
      }),
      { numRuns: 2000 },
    );
  });
});
