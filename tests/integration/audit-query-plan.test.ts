/**
 * Every SQL statement the audit read side runs against audit_events is driven by an index or
 * the primary key: EXPLAIN QUERY PLAN never shows a bare `SCAN audit_events`. The statements are
 * captured from the real query functions (the driver's prepare), so a new query cannot slip past.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type AuditFilters,
  type AuditPageRequest,
  auditPageQuery,
  countAuditEventsByStatus,
  getAuditEvent,
  iterateAuditEvents,
  keyOf,
  listAuditEvents,
  listAuditEventsForAction,
  planStatusCounts,
} from "@/db/queries/audit";
import { sqliteClient, useTestDatabase } from "../helpers/db";
import { expected, insertKnownEvents, type Known, MINUTE, T0, userIdOf } from "./audit-fixtures";

let captured: string[] = [];
let all: Known[];

function planOf(sqlText: string): string[] {
  const client = sqliteClient();
  const stmt = client.prepare(`EXPLAIN QUERY PLAN ${sqlText}`);
  // The plan does not depend on the values (no STAT4), so NULLs stand in for the parameters.
  const params = Array.from({ length: (sqlText.match(/\?/g) ?? []).length }, () => null);
  return (stmt.all(...params) as { detail: string }[]).map((r) => r.detail);
}

/** Plan lines about audit_events; each must use an index or the integer primary key. */
function assertIndexed(sqlText: string): string[] {
  const lines = planOf(sqlText).filter((l) => /\baudit_events\b/.test(l));
  expect(lines.length, sqlText).toBeGreaterThan(0);
  for (const line of lines) {
    expect(line, sqlText).toMatch(
      /^SEARCH audit_events USING (COVERING )?INDEX |^SEARCH audit_events USING INTEGER PRIMARY KEY/,
    );
    expect(line, sqlText).not.toMatch(/^SCAN/);
  }
  return lines;
}

const D = (m: number) => new Date(T0 + m * MINUTE);

describe("audit queries use indexes (EXPLAIN QUERY PLAN)", () => {
  beforeAll(async () => {
    await useTestDatabase();
    all = await insertKnownEvents(3000);
    anna = await userIdOf("anna@example.com");
    const client = sqliteClient();
    const prepare = client.prepare.bind(client);
    // Record what the query modules send to SQLite; behaviour is unchanged.
    client.prepare = ((source: string) => {
      captured.push(source);
      return prepare(source);
    }) as typeof client.prepare;
  });
  afterEach(() => {
    captured = [];
  });

  async function runAndCheck(run: () => Promise<unknown>): Promise<string[][]> {
    captured = [];
    await run();
    const sqls = captured.filter((s) => /audit_events/.test(s) && !s.startsWith("EXPLAIN"));
    expect(sqls.length).toBeGreaterThan(0);
    return sqls.map(assertIndexed);
  }

  let anna = "";
  const annaId = () => anna;
  const pageCases = (): [string, AuditFilters, string][] => [
    ["first page", {}, "audit_at_idx"],
    ["status", { status: "rejected" }, "audit_status_at_idx"],
    ["tool", { tool: "delete_everything" }, "audit_tool_at_idx"],
    ["chat", { chatId: "chat-2" }, "audit_chat_at_idx"],
    ["customer", { userId: annaId() }, "audit_user_at_idx"],
    ["range", { from: D(100), to: D(110) }, "audit_at_idx"],
    ["from only", { from: D(100) }, "audit_at_idx"],
    ["to only", { to: D(100) }, "audit_at_idx"],
    ["status + range", { status: "success", from: D(100), to: D(110) }, "audit_status_at_idx"],
    ["tool + range", { tool: "get_return_policy", from: D(100), to: D(900) }, "audit_tool_at_idx"],
    ["tool + status", { tool: "get_order_status", status: "success" }, "audit_status_at_idx"],
    [
      "customer + status + range",
      { userId: annaId(), status: "success", from: D(10) },
      "audit_user_at_idx",
    ],
    ["chat + customer", { chatId: "chat-1", userId: annaId() }, "audit_chat_at_idx"],
  ];

  it("drives every page query (first page and each filter) by one bounded index range, in order", async () => {
    const mid = all[1500]!;
    const key = { at: mid.at.getTime(), id: mid.id };
    for (const [name, filters, index] of pageCases()) {
      for (const req of [
        { filters, limit: 50 },
        { filters, limit: 50, before: key },
        { filters, limit: 50, after: key },
      ] satisfies AuditPageRequest[]) {
        const label = `${name} ${req.after ? "newer" : req.before ? "older" : "first"}`;
        const [lines] = await runAndCheck(async () => await listAuditEvents(req));
        expect(lines, label).toHaveLength(1);
        const plan = lines![0]!;
        expect(plan, label).toMatch(new RegExp(`^SEARCH audit_events USING INDEX ${index} \\(`));
        // The cursor is where the index range starts (a seek), not a filter on every row...
        expect(plan, label).toMatch(
          req.after ? /\(at,rowid\)>\(\?,\?\)/ : /\(at,rowid\)<\(\?,\?\)/,
        );
        // ...and the far end of a time range is where it stops.
        if (!req.after && filters.from) expect(plan, label).toMatch(/at>\?/);
        if (req.after && filters.to) expect(plan, label).toMatch(/at<\?/);
        // Rows come out of the index already in (at, id) order: no sort step.
        const full = planOf(auditPageQuery(req).toSQL().sql).join(" | ");
        expect(full, label).not.toMatch(/TEMP B-TREE/);
      }
    }
  });

  it("walks every filter to the end and back (Next, then Newer) with no duplicates or gaps", async () => {
    for (const [name, filters] of pageCases()) {
      const want = expected(all, filters);
      const older: number[] = [];
      let page = await listAuditEvents({ filters, limit: 13 });
      older.push(...page.rows.map((r) => r.id));
      while (page.hasMore) {
        page = await listAuditEvents({ filters, limit: 13, before: keyOf(page.rows.at(-1)!) });
        older.push(...page.rows.map((r) => r.id));
      }
      expect(older, name).toEqual(want);
      if (page.rows.length === 0) continue;
      // Back up from the oldest page: each "Newer" page is newest-first and sits above the last.
      const newer: number[] = [...page.rows.map((r) => r.id)];
      let up = { rows: page.rows, hasMore: true };
      while (up.hasMore) {
        up = await listAuditEvents({ filters, limit: 13, after: keyOf(up.rows[0]!) });
        newer.unshift(...up.rows.map((r) => r.id));
      }
      expect(newer, name).toEqual(want);
    }
  });

  it("counts by status, event lookups and the export iteration are indexed too", async () => {
    const counts = await runAndCheck(
      async () => await countAuditEventsByStatus({ from: D(0), to: D(500) }),
    );
    // One statement: the whole hours from the counters' primary key, the last 20 minutes on
    // (status, at), index entries only.
    expect(counts).toHaveLength(1);
    for (const lines of counts) expect(lines.join()).toMatch(/COVERING INDEX audit_status_at_idx/);
    const chart = captured.find((s) => /audit_status_counts/.test(s) && !s.startsWith("EXPLAIN"));
    expect(planOf(chart!).join()).toMatch(
      /SEARCH audit_status_counts USING INDEX sqlite_autoindex_audit_status_counts_1 \(span_hours=\? AND bucket>\? AND bucket<\?\)/,
    );
    await runAndCheck(async () => await getAuditEvent({ id: all[5]!.id }));
    await runAndCheck(async () => await listAuditEventsForAction({ actionId: "action-2" }));
    await runAndCheck(async () => {
      for await (const _page of iterateAuditEvents({
        filters: { from: D(50), to: D(90) },
        pageSize: 7,
      }));
    });
  });

  it("counts by status over whole days and hours (the counters) plus partial hours match the events", async () => {
    // From 25 s into the last 30 minutes of an hour: that partial hour, two whole hours, the
    // second UTC day, one whole hour, then 35 minutes and 10 s into the next; every part holds
    // events. The fixture's counters are rebuilt from its rows, so a missing or wrong counter
    // gives a wrong count here.
    const from = new Date(D(1440 - 150).getTime() + 25_000);
    const to = new Date(D(2880 + 95).getTime() + 10_000);
    const plan = planStatusCounts(from.getTime(), to.getTime());
    expect(plan.buckets.map((b) => b.spanHours).sort()).toEqual([1, 1, 24]);
    expect(plan.events).toHaveLength(2);
    const counts = await countAuditEventsByStatus({ from, to });
    for (const [status, n] of Object.entries(counts)) {
      expect(n, status).toBe(expected(all, { status: status as Known["status"], from, to }).length);
    }
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(
      expected(all, { from, to }).length,
    );
  });

  it("counts by status match the known events", async () => {
    const from = D(60);
    const to = D(1200);
    const counts = await countAuditEventsByStatus({ from, to });
    for (const [status, n] of Object.entries(counts)) {
      expect(n, status).toBe(expected(all, { status: status as Known["status"], from, to }).length);
    }
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(
      expected(all, { from, to }).length,
    );
  });
});
