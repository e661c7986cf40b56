/**
 * The daily counters behind the metrics page: bumps summed per day, name and key (a zero leaves no
 * row), the series leaving out a key prefix, and the rebuild from audit_events (what a bulk load
 * past the writer runs) making exactly what the writer made, daily counters and the status
 * chart's buckets both, even over counters that were lost or wrong. SQLite and PostgreSQL.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { execute, getDb, sql } from "@/db";
import { insertAuditEvent } from "@/db/queries/audit-write";
import {
  bumpDaily,
  DAY_MS,
  dailySeries,
  dailyTotals,
  dayOf,
  rebuildAuditCounters,
} from "@/db/queries/metrics";
import { writeTransaction } from "@/db/queries/tx";
import { auditStatusCounts, metricsDaily } from "@/db/schema";
import { useTestDatabase } from "../helpers/db";

// Far from any other test's days, so the counters read here are only this file's.
const D0 = dayOf(Date.parse("2031-02-01T00:00:00.000Z"));
const at = (day: number, hour: number) => new Date((D0 + day) * DAY_MS + hour * 3_600_000);

const dailyRows = async () =>
  (await getDb().select().from(metricsDaily))
    .filter((r) => /^(audit|action)\./.test(r.name))
    .map(({ day, name, key, n }) => ({ day, name, key, n }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
const statusRows = async () =>
  (await getDb().select().from(auditStatusCounts)).sort((a, b) =>
    a.spanHours !== b.spanHours ? a.spanHours - b.spanHours : a.bucket - b.bucket,
  );

describe("daily counters", () => {
  beforeAll(async () => {
    await useTestDatabase();
  });

  it("dayOf: a time or its milliseconds, UTC days since the epoch", () => {
    const t = Date.parse("2026-06-01T23:59:59.999Z");
    expect(dayOf(new Date(t))).toBe(dayOf(t));
    expect(dayOf(t)).toBe(Math.floor(t / DAY_MS));
    expect(dayOf(t + 1)).toBe(dayOf(t) + 1);
  });

  it("bumps sum per day, name and key; a zero bump leaves no row", async () => {
    const day = D0 + 100;
    await writeTransaction(() =>
      bumpDaily([
        { day, name: "test.bumps", key: "a", n: 2 },
        { day, name: "test.bumps", key: "a", n: 3 },
        { day, name: "test.bumps", n: 1 },
        { day, name: "test.zero", key: "z", n: 0 },
      ]),
    );
    await writeTransaction(() => bumpDaily([{ day, name: "test.bumps", key: "a", n: 4 }]));
    await writeTransaction(() => bumpDaily([{ day, name: "test.zero", n: 0 }]));
    const totals = (await dailyTotals({ fromDay: day, toDay: day + 1 })).sort((x, y) =>
      x.key.localeCompare(y.key),
    );
    expect(totals).toEqual([
      { name: "test.bumps", key: "", n: 1 },
      { name: "test.bumps", key: "a", n: 9 },
    ]);
  });

  it("the series sums a day's keys, and can leave out a key prefix", async () => {
    const day = D0 + 200;
    await writeTransaction(() =>
      bumpDaily([
        { day, name: "test.series", key: "cancel_order", n: 2 },
        { day, name: "test.series", key: "effect:payment.refund", n: 5 },
        { day: day + 1, name: "test.series", key: "cancel_order", n: 1 },
      ]),
    );
    const range = { fromDay: day, toDay: day + 2, names: ["test.series"] };
    expect(await dailySeries(range)).toEqual([
      { day, name: "test.series", n: 7 },
      { day: day + 1, name: "test.series", n: 1 },
    ]);
    expect(await dailySeries({ ...range, excludeKeyPrefix: "effect:" })).toEqual([
      { day, name: "test.series", n: 2 },
      { day: day + 1, name: "test.series", n: 1 },
    ]);
  });

  it("the rebuild from audit_events makes what the writer made, over lost and wrong counters", async () => {
    for (const [day, hour, status, tool, actionId] of [
      [0, 1, "success", "get_order_status", null],
      [0, 2, "success", "get_order_status", null],
      [0, 3, "confirmation_required", "cancel_order", "act-1"],
      [0, 4, "success", "cancel_order", "act-1"],
      [1, 0, "business_error", "create_return_request", "act-2"],
      [1, 23, "technical_error", "effect:payment.refund", "act-1"],
      [40, 5, "success", "get_order_status", null],
    ] as const) {
      await insertAuditEvent({ at: at(day, hour), status, tool, actionId });
    }
    const daily = await dailyRows();
    const statuses = await statusRows();
    expect(daily).toContainEqual({
      day: D0,
      name: "action.confirmation_required",
      key: "cancel_order",
      n: 1,
    });
    expect(statuses.length).toBeGreaterThan(0);

    // Lost, and wrong: the rebuild trusts only the events.
    await execute(sql.raw("UPDATE audit_status_counts SET success = success + 7"));
    await execute(sql.raw("DELETE FROM metrics_daily WHERE name LIKE 'action.%'"));
    await execute(sql.raw("UPDATE metrics_daily SET n = n + 10 WHERE name LIKE 'audit.%'"));
    await writeTransaction(() =>
      bumpDaily([{ day: D0 + 3, name: "audit.success", key: "made_up", n: 4 }]),
    );
    expect(await dailyRows()).not.toEqual(daily);
    expect(await statusRows()).not.toEqual(statuses);

    await rebuildAuditCounters();
    expect(await dailyRows()).toEqual(daily);
    expect(await statusRows()).toEqual(statuses);
  });
});
