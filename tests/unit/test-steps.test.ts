import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM script, no types
import { readBudgets, SLOW_FACTOR, STAGES, table } from "../../scripts/test-steps.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const docs = fs.readFileSync(path.join(ROOT, "docs", "testing.md"), "utf8");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));

type Row = { name: string; status: string; slow?: boolean };

describe("npm test's step table", () => {
  it("runs every step through package.json's scripts, each once, and docs/testing.md budgets each", () => {
    const steps = (STAGES as string[][]).flat();
    expect(new Set(steps).size).toBe(steps.length);
    for (const step of steps) expect(pkg.scripts[step], step).toBeTypeOf("string");
    const budgets = readBudgets(docs) as Record<string, number>;
    expect(Object.keys(budgets).sort()).toEqual([...steps].sort());
    for (const step of steps) expect(budgets[step]).toBeGreaterThan(0);
  });

  it("reads the budget column of the Budgets section only", () => {
    const md = [
      "## Latest",
      "| `lint` | 999 | x |",
      "## Budgets",
      "| step | budget (s) |",
      "|---|---:|",
      "| `lint` | 40 | Biome |",
      "| `test:unit` | 300 | |",
      "## After",
      "| `test:e2e` | 1 |",
    ].join("\n");
    expect(readBudgets(md)).toEqual({ lint: 40, "test:unit": 300 });
  });

  it("marks a step SLOW only past 1.5 times its budget, a failure as failed, and what never ran", () => {
    const budgets = { a: 100, b: 100, c: 100, d: 100 };
    const { rows, text } = table(
      [
        { name: "a", seconds: 100 * SLOW_FACTOR, ok: true },
        { name: "b", seconds: 100 * SLOW_FACTOR + 1, ok: true },
        { name: "c", seconds: 500, ok: false, code: 1 },
      ],
      budgets,
      ["d"],
    ) as { rows: Row[]; text: string };
    expect(rows.map((r) => [r.name, r.status])).toEqual([
      ["a", "ok"],
      ["b", `SLOW: over ${SLOW_FACTOR}× budget`],
      ["c", "FAILED (1)"],
      ["d", "not run"],
    ]);
    expect(rows.filter((r) => r.slow).map((r) => r.name)).toEqual(["b"]);
    expect(text).toContain("| b | 151 s | 100 s | SLOW");
  });
});
