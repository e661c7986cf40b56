/**
 * The audit's keyset pages against a reference: walking "Next" from the first page, then
 * "Newer" back from the last, visits every matching event exactly once in the order a plain
 * sort gives (newest first, ties by id), for any filter, time range and page size. The export
 * (iterateAuditEvents) yields the same rows in full pages, and no empty page at an exact
 * multiple. fast-check picks the filters; events include out-of-order timestamps.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { AUDIT_STATUSES } from "@/db/constants";
import {
  type AuditFilters,
  findPersonByEmail,
  getPeopleByIds,
  iterateAuditEvents,
  keyOf,
  listAuditEvents,
} from "@/db/queries/audit";
import { useTestDatabase } from "../helpers/db";
import {
  expected,
  insertKnownEvents,
  type Known,
  MINUTE,
  T0,
  TOOLS,
  userIdOf,
} from "./audit-fixtures";

let all: Known[];
let people: string[];
beforeAll(async () => {
  await useTestDatabase();
  all = await insertKnownEvents(120);
  people = [await userIdOf("anna@example.com"), await userIdOf("boris@example.com")];
});

/** Mostly absent, so most runs match many events across several pages. */
const sometimes = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: arb, weight: 1 });
const filtersArb = () =>
  fc
    .record({
      status: sometimes(fc.constantFrom(...AUDIT_STATUSES)),
      tool: sometimes(fc.constantFrom(...TOOLS)),
      chatId: sometimes(fc.constantFrom("chat-1", "chat-3")),
      userId: sometimes(fc.constantFrom(0, 1)),
      from: sometimes(fc.integer({ min: -40, max: 130 })),
      to: sometimes(fc.integer({ min: -40, max: 130 })),
    })
    .map(({ userId, from, to, ...rest }) => {
      const f: AuditFilters = {
        ...rest,
        userId: userId === undefined ? undefined : people[userId],
        // Bounds between events too (30 s past a whole minute), and on them.
        from: from === undefined ? undefined : new Date(T0 + from * MINUTE),
        to: to === undefined ? undefined : new Date(T0 + to * MINUTE + (to % 2) * 30_000),
      };
      return Object.fromEntries(
        Object.entries(f).filter(([, v]) => v !== undefined),
      ) as AuditFilters;
    });

async function walk(filters: AuditFilters, limit: number) {
  const forward: number[][] = [];
  let before: ReturnType<typeof keyOf> | undefined;
  for (;;) {
    const page = await listAuditEvents({ filters, before, limit });
    expect(page.rows.length).toBeLessThanOrEqual(limit);
    forward.push(page.rows.map((r) => r.id));
    if (!page.hasMore) break;
    // "Next" is offered only when a full page was shown.
    expect(page.rows).toHaveLength(limit);
    before = keyOf(page.rows.at(-1)!);
  }
  // Back again with "Newer" from the last page's first row: the same pages, in reverse.
  const back: number[][] = [];
  let after = forward.length > 1 ? firstKey(forward.at(-1)!) : undefined;
  while (after) {
    const page = await listAuditEvents({ filters, after, limit });
    back.unshift(page.rows.map((r) => r.id));
    after = page.hasMore ? keyOf(page.rows[0]!) : undefined;
  }
  return { forward, back };
}

function firstKey(ids: number[]) {
  const e = all.find((k) => k.id === ids[0])!;
  return { at: e.at.getTime(), id: e.id };
}

describe("audit keyset pages", () => {
  it("Next then Newer visit every matching event once, in the reference order", async () => {
    await fc.assert(
      fc.asyncProperty(filtersArb(), fc.integer({ min: 1, max: 12 }), async (filters, limit) => {
        const want = expected(all, filters);
        const { forward, back } = await walk(filters, limit);
        expect(forward.flat()).toEqual(want);
        // A "Newer" cursor older than every event (a link kept from another range): still only
        // the range's events, the oldest `limit` of them, newest first.
        const oldest = await listAuditEvents({ filters, after: { at: 0, id: 0 }, limit });
        expect(oldest.rows.map((r) => r.id)).toEqual(want.slice(-limit));
        expect(oldest.hasMore).toBe(want.length > limit);
        // Newer pages are shown newest first too, and reach the first page's rows again.
        if (forward.length > 1) {
          // Every event newer than the last page's first, and nothing else.
          expect(back.flat()).toEqual(want.slice(0, want.length - forward.at(-1)!.length));
        }
      }),
      { numRuns: 40, seed: 20261204 },
    );
  });

  it("the export yields full pages of every matching row, and no empty page at an exact multiple", async () => {
    for (const [filters, pageSize] of [
      [{}, 7],
      [{ tool: "create_return_request" }, 10],
      [{ from: new Date(T0 + 10 * MINUTE), to: new Date(T0 + 50 * MINUTE) }, 4],
      [{ status: "success" as const }, 1000],
    ] as const) {
      const want = expected(all, filters);
      const pages: number[][] = [];
      for await (const page of iterateAuditEvents({ filters, pageSize }))
        pages.push(page.map((r) => r.id));
      expect(pages.flat(), JSON.stringify(filters)).toEqual(want);
      for (const p of pages.slice(0, -1)) expect(p).toHaveLength(pageSize);
      expect(pages.at(-1)?.length ?? 0).toBeGreaterThan(0);
    }
    // Exactly two full pages: two yields, then done.
    const want = expected(all, {});
    const pages: number[] = [];
    for await (const page of iterateAuditEvents({ filters: {}, pageSize: want.length / 2 }))
      pages.push(page.length);
    expect(pages).toEqual([want.length / 2, want.length / 2]);
    // Nothing matches: nothing is yielded.
    const none: unknown[] = [];
    for await (const page of iterateAuditEvents({ filters: { chatId: "no-such-chat" } }))
      none.push(page);
    expect(none).toEqual([]);
  });

  it("people by id and by email: the staff audit's names, an email as typed", async () => {
    expect(await getPeopleByIds({ ids: [] })).toEqual(new Map());
    const byId = await getPeopleByIds({ ids: [people[0]!, people[0]!, people[1]!, "nobody"] });
    expect([...byId.keys()].sort()).toEqual([people[0]!, people[1]!].sort());
    expect(byId.get(people[0]!)).toMatchObject({ email: "anna@example.com" });
    expect(await findPersonByEmail({ email: "  Anna@Example.COM " })).toMatchObject({
      id: people[0],
      email: "anna@example.com",
    });
    expect(await findPersonByEmail({ email: "nobody@example.com" })).toBeNull();
  });
});
