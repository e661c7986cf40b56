import { beforeAll, describe, expect, it } from "vitest";
import { auditHref, chartRange, exportHref, parsePageFilters } from "@/lib/audit/page-filters";
import { encodeCursor } from "@/lib/audit/query";
import { useTestDatabase } from "../helpers/db";
import { userIdOf } from "./audit-fixtures";

describe("/audit URL filters", () => {
  beforeAll(async () => {
    await useTestDatabase();
  });

  it("maps the form onto the API's filters: email to user id, UTC days, `to` inclusive", async () => {
    const p = await parsePageFilters({
      status: "rejected",
      tool: "delete_everything",
      customer: " Anna@Example.com ",
      chat: "chat-1",
      from: "2026-03-01",
      to: "2026-03-02",
    });
    expect(p.problems).toEqual([]);
    expect(p.filters).toEqual({
      status: "rejected",
      tool: "delete_everything",
      userId: await userIdOf("anna@example.com"),
      chatId: "chat-1",
      from: new Date("2026-03-01T00:00:00.000Z"),
      to: new Date("2026-03-03T00:00:00.000Z"),
    });
    expect(exportHref(p.filters)).toBe(
      `/api/audit/export?status=rejected&tool=delete_everything&chatId=chat-1&userId=${await userIdOf("anna@example.com")}&from=2026-03-01T00%3A00%3A00.000Z&to=2026-03-03T00%3A00%3A00.000Z`,
    );
  });

  it("reports bad values instead of failing, and an unknown customer matches nothing", async () => {
    const p = await parsePageFilters({
      status: "on_fire",
      customer: "nobody@example.com",
      from: "2026-02-30",
      to: "soon",
    });
    expect(p.filters).toEqual({});
    expect(p.noMatch).toBe(true);
    expect(p.problems).toEqual([
      { code: "unknown_status", value: "on_fire" },
      { code: "unknown_customer", value: "nobody@example.com" },
      { code: "bad_from", value: "2026-02-30" },
      { code: "bad_to", value: "soon" },
    ]);
    const reversed = await parsePageFilters({ from: "2026-03-05", to: "2026-03-01" });
    expect(reversed.problems).toEqual([{ code: "reversed_dates" }]);
    expect(reversed.filters).toEqual({});
  });

  it("reads keyset cursors and links keep the filters but not the cursor", async () => {
    const key = { at: 1_772_323_200_000, id: 42 };
    const p = await parsePageFilters({
      status: "success",
      before: encodeCursor(key),
      after: ["x", "y"],
    });
    // A damaged "after" is reported and the intact "before" still applies.
    expect(p.after).toBeUndefined();
    expect(p.before).toEqual(key);
    expect(p.problems).toEqual([{ code: "bad_cursor" }]);
    expect(
      await parsePageFilters({ after: encodeCursor(key), before: encodeCursor(key) }),
    ).toMatchObject({
      after: key,
      before: undefined,
    });
    expect(auditHref(p.form, { after: "c1.abc" })).toBe("/audit?status=success&after=c1.abc");
    expect(auditHref(p.form, { status: undefined })).toBe("/audit");
  });

  it("the chart counts the chosen range, or the last 7 days", () => {
    const now = new Date("2026-03-10T12:00:00Z");
    expect(chartRange({}, now)).toEqual({
      from: new Date("2026-03-03T12:00:00Z"),
      to: now,
      chosen: false,
    });
    const from = new Date("2026-03-01T00:00:00Z");
    expect(chartRange({ from }, now)).toEqual({ from, to: now, chosen: true });
  });
});
