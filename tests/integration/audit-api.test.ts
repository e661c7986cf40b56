import { beforeAll, describe, expect, it } from "vitest";
import { GET as exportCsv } from "@/app/api/audit/export/route";
import { GET as listAudit } from "@/app/api/audit/route";
import { useTestDatabase } from "../helpers/db";
import { call, signIn } from "../helpers/http";
import {
  expected,
  insertKnownEvents,
  type Known,
  type KnownFilter,
  MINUTE,
  T0,
  userIdOf,
} from "./audit-fixtures";

type Page = {
  events: { id: string; at: string; status: string; tool: string }[];
  nextCursor: string | null;
};

describe("GET /api/audit: staff only, filters, keyset pages", () => {
  let all: Known[];
  let staff: string;
  let anna: string;

  beforeAll(async () => {
    await useTestDatabase();
    all = await insertKnownEvents(240);
    staff = await signIn("staff@example.com");
    anna = await signIn("anna@example.com");
  });

  const get = (query: string, cookie = staff) =>
    call(listAudit, `/api/audit${query}`, {}, { cookie });

  /** Follows nextCursor to the end; returns every id in the order the API gave them. */
  async function walk(query: string, limit: number): Promise<number[]> {
    const ids: number[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 1000; pages++) {
      const sep = query ? "&" : "?";
      const q = `${query}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const res = await get(q);
      expect(res.status, q).toBe(200);
      const body = (await res.json()) as Page;
      expect(body.events.length).toBeLessThanOrEqual(limit);
      ids.push(...body.events.map((e) => Number(e.id)));
      if (!body.nextCursor) return ids;
      expect(body.events.length).toBe(limit);
      cursor = body.nextCursor;
    }
    throw new Error("too many pages");
  }

  it("refuses anonymous visitors (401) and customers (403) with the JSON error contract", async () => {
    const anon = await get("", "");
    expect(anon.status).toBe(401);
    expect((await anon.json()).error.code).toBe("unauthenticated");
    const customer = await get("", anna);
    expect(customer.status).toBe(403);
    expect((await customer.json()).error.code).toBe("forbidden");
    // Even a malformed query tells a customer nothing but "forbidden".
    expect((await get("?status=nope", anna)).status).toBe(403);
  });

  it("gives staff the newest 50 events with exactly the AuditEvent fields of docs/api.md", async () => {
    const res = await get("");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.events).toHaveLength(50);
    expect(body.events.map((e: { id: string }) => Number(e.id))).toEqual(
      expected(all, {}).slice(0, 50),
    );
    const first = body.events[0];
    expect(Object.keys(first).sort()).toEqual(
      [
        "id",
        "at",
        "userId",
        "actorId",
        "chatId",
        "actionId",
        "toolCallId",
        "tool",
        "access",
        "status",
        "errorCode",
        "durationMs",
        "arguments",
        "result",
        "promptVersion",
        "model",
      ].sort(),
    );
    const newest = all.at(-1)!;
    expect(first).toMatchObject({
      id: String(newest.id),
      at: newest.at.toISOString(),
      tool: newest.tool,
    });
    expect(first.arguments).toEqual({ orderId: "7718", n: 239 });
    expect(typeof body.nextCursor).toBe("string");
  });

  it("walks every page with no duplicates and no gaps, at several page sizes", async () => {
    for (const limit of [1, 7, 50, 200]) {
      expect(await walk("", limit)).toEqual(expected(all, {}));
    }
  });

  it("filters by status, tool (including an unknown tool name), chat and customer", async () => {
    const annaId = await userIdOf("anna@example.com");
    const cases: [string, KnownFilter][] = [
      ["?status=rejected", { status: "rejected" }],
      ["?status=confirmation_required", { status: "confirmation_required" }],
      ["?tool=delete_everything", { tool: "delete_everything" }],
      ["?tool=create_return_request", { tool: "create_return_request" }],
      ["?chatId=chat-3", { chatId: "chat-3" }],
      [`?userId=${annaId}`, { userId: annaId }],
      [`?userId=${annaId}&status=success`, { userId: annaId, status: "success" }],
      [
        `?chatId=chat-2&userId=${annaId}&tool=get_order_status`,
        { chatId: "chat-2", userId: annaId, tool: "get_order_status" },
      ],
      ["?status=stale&tool=get_return_policy", { status: "stale", tool: "get_return_policy" }],
      ["?tool=no_such_tool", { tool: "no_such_tool" }],
    ];
    for (const [query, f] of cases) {
      const want = expected(all, f);
      expect(await walk(query, 4), query).toEqual(want);
    }
    expect(expected(all, { tool: "no_such_tool" })).toEqual([]);
  });

  it("applies from (inclusive) and to (exclusive) exactly, even when `at` is out of id order", async () => {
    const iso = (ms: number) => new Date(ms).toISOString();
    const from = T0 + 40 * MINUTE; // an event is stamped exactly here
    const to = T0 + 100 * MINUTE; // and exactly here: it must be left out
    expect(all.some((e) => e.at.getTime() === from)).toBe(true);
    expect(all.some((e) => e.at.getTime() === to)).toBe(true);
    const cases: [string, KnownFilter][] = [
      [`?from=${iso(from)}&to=${iso(to)}`, { from: new Date(from), to: new Date(to) }],
      [`?from=${iso(from)}`, { from: new Date(from) }],
      [`?to=${iso(to)}`, { to: new Date(to) }],
      [
        `?from=${iso(from)}&to=${iso(to)}&status=success`,
        { from: new Date(from), to: new Date(to), status: "success" },
      ],
      ["?chatId=chat-1&from=2026-03-01T02:00:00%2B02:00", { chatId: "chat-1", from: new Date(T0) }],
    ];
    for (const [query, f] of cases) {
      const want = expected(all, f);
      expect(want.length, query).toBeGreaterThan(0);
      expect(await walk(query, 9), query).toEqual(want);
    }
    // An out-of-order event (stamped 30 min early) lands in the window by its time, not its id.
    const early = all.find((e, i) => e.at.getTime() < T0 + i * MINUTE && e.at.getTime() >= from);
    const stampedBeforeFrom = all.find((e, i) => T0 + i * MINUTE >= from && e.at.getTime() < from);
    const windowIds = await walk(`?from=${iso(from)}&to=${iso(to)}`, 50);
    expect(windowIds).toContain(early!.id);
    expect(windowIds).not.toContain(stampedBeforeFrom!.id);
  });

  it("rejects bad parameters with 400 invalid_request", async () => {
    const bad = [
      "?status=exploded",
      "?limit=0",
      "?limit=201",
      "?limit=ten",
      "?limit=2.5",
      "?from=yesterday",
      "?from=2026-03-01", // a date without a time is not a date-time
      "?to=2026-03-01T10:00:00", // no offset: ambiguous
      "?from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z",
      "?cursor=123",
      "?cursor=c1.bm9wZQ",
      "?stauts=success",
      "?status=success&status=rejected",
    ];
    for (const q of bad) {
      const res = await get(q);
      expect(res.status, q).toBe(400);
      const body = await res.json();
      expect(body.error.code, q).toBe("invalid_request");
      expect(typeof body.error.message).toBe("string");
    }
    expect((await get("?limit=200")).status).toBe(200);
  });

  it("treats empty parameters as unset, as docs/api.md's own template sends them", async () => {
    const empty = await get("?status=&tool=&chatId=&userId=&from=&to=&cursor=&limit=");
    expect(empty.status).toBe(200);
    const plain = await get("");
    expect(await empty.json()).toEqual(await plain.json());
  });
});

describe("GET /api/audit/export: streamed CSV", () => {
  let all: Known[];
  let staff: string;

  beforeAll(async () => {
    await useTestDatabase();
    all = await insertKnownEvents(2500);
    staff = await signIn("staff@example.com");
  });

  it("is staff only", async () => {
    expect((await call(exportCsv, "/api/audit/export", {}, {})).status).toBe(401);
    const anna = await signIn("anna@example.com");
    expect((await call(exportCsv, "/api/audit/export", {}, { cookie: anna })).status).toBe(403);
  });

  it("exports every filtered event once, newest first, across many keyset pages", async () => {
    const res = await call(
      exportCsv,
      "/api/audit/export?tool=get_order_status",
      {},
      { cookie: staff },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="audit-events-.+\.csv"$/,
    );
    const lines = (await res.text()).split("\r\n");
    expect(lines.at(-1)).toBe("");
    expect(lines[0]).toMatch(/^id,at,customer_email,user_id,chat_id,/);
    const ids = lines.slice(1, -1).map((l) => Number(l.split(",")[0]));
    expect(ids).toEqual(expected(all, { tool: "get_order_status" }));
    expect(lines[1]).toContain("anna@example.com");
  });

  it("rejects the same bad parameters as the list", async () => {
    const res = await call(exportCsv, "/api/audit/export?limit=5", {}, { cookie: staff });
    expect(res.status).toBe(400);
  });
});
