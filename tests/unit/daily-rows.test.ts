/**
 * The rows one bump of the daily counters writes. On PostgreSQL two writers that bump the same
 * counters must lock them in one order, or they can deadlock; and one statement must not touch a
 * row twice. Neither shows on SQLite's single writer, so the rows are checked here directly.
 */
import { describe, expect, it } from "vitest";
import { dailyRows } from "@/db/queries/metrics";

describe("dailyRows", () => {
  it("sums the same counter, drops zeros, and fills the empty key", () => {
    expect(
      dailyRows([
        { day: 3, name: "turns", n: 1 },
        { day: 3, name: "turns", key: "", n: 2 },
        { day: 3, name: "tool", key: "cancel_order", n: 0 },
        { day: 3, name: "tool", key: "cancel_order", n: -1 },
        { day: 3, name: "tool", key: "cancel_order", n: 5 },
      ]),
    ).toEqual([
      { day: 3, name: "tool", key: "cancel_order", n: 4 },
      { day: 3, name: "turns", key: "", n: 3 },
    ]);
  });

  it("puts rows in one order whatever order the bumps came in", () => {
    const bumps = [
      { day: 2, name: "b", key: "y", n: 1 },
      { day: 1, name: "z", n: 1 },
      { day: 2, name: "a", key: "x", n: 1 },
      { day: 2, name: "b", key: "x", n: 1 },
      { day: 2, name: "a", n: 1 },
    ];
    const expected = [
      { day: 1, name: "z", key: "", n: 1 },
      { day: 2, name: "a", key: "", n: 1 },
      { day: 2, name: "a", key: "x", n: 1 },
      { day: 2, name: "b", key: "x", n: 1 },
      { day: 2, name: "b", key: "y", n: 1 },
    ];
    expect(dailyRows(bumps)).toEqual(expected);
    expect(dailyRows([...bumps].reverse())).toEqual(expected);
    expect(dailyRows([bumps[2]!, bumps[0]!, bumps[4]!, bumps[1]!, bumps[3]!])).toEqual(expected);
  });

  it("writes nothing for no bumps or only zeros", () => {
    expect(dailyRows([])).toEqual([]);
    expect(dailyRows([{ day: 1, name: "turns", n: 0 }])).toEqual([]);
  });
});
