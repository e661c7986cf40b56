import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVitest } from "vitest/node";
import { keptThreads } from "../helpers/kept-thread-pool";

/**
 * The pool Stryker's runs use (vitest.mutation.config.ts), driven the way Stryker's vitest runner
 * drives it: one vitest instance, one run after another, a test-name filter set on the project
 * before each. What the mutation figures rest on: a run after the first reuses the thread and its
 * imports, still gets its own filter, and a failing run (a killed mutant, with bail) does not
 * spoil the next; the thread is replaced after its quota, and closing vitest ends it.
 */
describe("kept-threads: vitest's worker thread lives from one run to the next", () => {
  let dir: string;
  let log: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "kept-threads-"));
    log = path.join(dir, "runs.jsonl");
    // A module with state: evaluated once per thread, so its counter tells a kept import.
    writeFileSync(
      path.join(dir, "state.mjs"),
      "let loads = 0;\nexport const load = () => ++loads;\n",
    );
    writeFileSync(
      path.join(dir, "probe.test.mjs"),
      [
        'import { appendFileSync, existsSync } from "node:fs";',
        'import { threadId } from "node:worker_threads";',
        'import { test } from "vitest";',
        'import { load } from "./state.mjs";',
        "const count = load();",
        `const record = (name) => appendFileSync(${JSON.stringify(log)}, JSON.stringify({ name, threadId, count }) + "\\n");`,
        'test("alpha", () => record("alpha"));',
        'test("beta", () => record("beta"));',
        'test("gamma fails when asked to", () => {',
        '  record("gamma");',
        `  if (existsSync(${JSON.stringify(path.join(dir, "fail"))})) throw new Error("asked to fail");`,
        "});",
      ].join("\n"),
    );
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reuses the thread and its imports, applies each run's filter, survives a failing run, and is replaced after its quota", async () => {
    // One worker, as in Stryker's runs: VITEST_MAX_WORKERS (read by vitest over any config)
    // would otherwise run the files side by side.
    delete process.env.VITEST_MAX_WORKERS;
    const vitest = await createVitest("test", {
      root: dir,
      config: false,
      include: ["probe.test.mjs"],
      pool: keptThreads({ runsPerThread: 3 }),
      maxWorkers: 1,
      isolate: false,
      bail: 1,
      watch: false,
      reporters: [{}],
    });
    const runs: Array<Array<{ name: string; threadId: number; count: number }>> = [];
    const run = async (pattern: RegExp, fail = false) => {
      writeFileSync(log, "");
      if (fail) writeFileSync(path.join(dir, "fail"), "");
      else rmSync(path.join(dir, "fail"), { force: true });
      for (const project of vitest.projects) project.config.testNamePattern = pattern;
      vitest.state.filesMap.clear();
      await vitest.start([path.join(dir, "probe.test.mjs")]);
      runs.push(
        readFileSync(log, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line)),
      );
      return vitest.state.getFiles()[0]?.result?.state;
    };
    try {
      expect(await run(/alpha/)).toBe("pass");
      expect(await run(/beta/)).toBe("pass");
      expect(await run(/gamma/, true)).toBe("fail");
      expect(await run(/alpha/)).toBe("pass");
      expect(await run(/beta/)).toBe("pass");
    } finally {
      await vitest.close();
    }
    // Each run ran only the test its filter named.
    expect(runs.map((r) => r.map((t) => t.name))).toEqual([
      ["alpha"],
      ["beta"],
      ["gamma"],
      ["alpha"],
      ["beta"],
    ]);
    const threads = runs.map((r) => r[0]?.threadId);
    const counts = runs.map((r) => r[0]?.count);
    // The first three runs share one thread and one evaluation of the state module (the test file
    // itself is evaluated again each run, so the counter goes on); the failed run kept them too.
    // The fourth is past the quota of three: a new thread, a new import.
    expect(threads[1]).toBe(threads[0]);
    expect(threads[2]).toBe(threads[0]);
    expect(threads[3]).not.toBe(threads[0]);
    expect(threads[4]).toBe(threads[3]);
    expect(counts).toEqual([1, 2, 3, 1, 2]);
  }, 60_000);
});
