import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVitest } from "vitest/node";
import { ShortestFirstSequencer } from "../helpers/shortest-first-sequencer";

/**
 * The order Stryker's runs give a mutant's covering files (vitest.mutation.config.ts), driven as
 * Stryker's vitest runner drives it: one vitest instance, one run after another, each with a
 * test-name filter and bail at the first failure. What the mutation run's time rests on: the
 * quickest file runs first; a file that ran only a quick part of itself for one mutant still
 * counts as slow for the next; a file that just failed (killed a mutant) runs first next time.
 */
describe("shortest-first: a mutant's covering files, quickest first", () => {
  let dir: string;
  let log: string;
  const files = ["slow", "medium", "quick"] as const;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "shortest-first-"));
    log = path.join(dir, "order.log");
    // Sizes run the other way from durations: the slow file is the smallest, so the first run,
    // with nothing measured yet, is ordered by size and every later one by duration.
    const pause = { slow: 400, medium: 120, quick: 0 };
    const padding = { slow: 0, medium: 2_000, quick: 4_000 };
    for (const name of files) {
      writeFileSync(
        path.join(dir, `${name}.test.mjs`),
        [
          'import { appendFileSync, existsSync } from "node:fs";',
          'import { test } from "vitest";',
          `const record = () => appendFileSync(${JSON.stringify(log)}, "${name}\\n");`,
          `test("${name} long", async () => { record(); await new Promise((r) => setTimeout(r, ${pause[name]})); });`,
          `test("${name} short", () => {`,
          "  record();",
          `  if (existsSync(${JSON.stringify(path.join(dir, `fail-${name}`))})) throw new Error("asked to fail");`,
          "});",
          `// ${"x".repeat(padding[name])}`,
        ].join("\n"),
      );
    }
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("orders by size before any run, then by the longest whole run seen, with the file that failed last first", async () => {
    // One worker, as in Stryker's runs: VITEST_MAX_WORKERS (read by vitest over any config)
    // would otherwise run the files side by side.
    delete process.env.VITEST_MAX_WORKERS;
    const vitest = await createVitest("test", {
      root: dir,
      config: false,
      include: ["*.test.mjs"],
      sequence: { sequencer: ShortestFirstSequencer },
      maxWorkers: 1,
      isolate: false,
      bail: 1,
      watch: false,
      reporters: [{}],
    });
    const run = async (pattern?: RegExp, fail?: (typeof files)[number]) => {
      writeFileSync(log, "");
      for (const name of files) rmSync(path.join(dir, `fail-${name}`), { force: true });
      if (fail) writeFileSync(path.join(dir, `fail-${fail}`), "");
      for (const project of vitest.projects) project.config.testNamePattern = pattern;
      vitest.state.filesMap.clear();
      await vitest.start(files.map((name) => path.join(dir, `${name}.test.mjs`)));
      // The files in the order they ran, each once.
      return [...new Set(readFileSync(log, "utf8").split("\n").filter(Boolean))];
    };
    try {
      // Nothing measured: smallest first.
      expect(await run()).toEqual(["slow", "medium", "quick"]);
      // Measured: quickest first.
      expect(await run()).toEqual(["quick", "medium", "slow"]);
      // Only the short tests: every file is now about as quick, but the whole runs seen still
      // order them; and the slow file's short test fails, as a killed mutant's would.
      expect(await run(/short$/, "slow")).toEqual(["quick", "medium", "slow"]);
      // The file that failed last runs first; the rest keep their order.
      expect(await run(/short$/, "medium")).toEqual(["slow", "quick", "medium"]);
      // With bail, a failing first file ends the run: the others never start, as for a mutant
      // killed by the first file.
      expect(await run(/short$/, "medium")).toEqual(["medium"]);
    } finally {
      await vitest.close();
    }
  }, 60_000);
});
