import fs from "node:fs";
import path from "node:path";
import type { TestSpecification } from "vitest/node";
import { BaseSequencer } from "vitest/node";

/**
 * The order of the covering test files in each of Stryker's runs (vitest.mutation.config.ts):
 * shortest first, where vitest's own order is longest first.
 *
 * Stryker runs a mutant's covering tests with vitest's bail at the first failure, so a killed
 * mutant costs the tests that pass before the one that kills it. Longest first suits a full run
 * on many workers, where the longest file should not start last. For a mutant it is the worst
 * order: the integration files that reach a line through the route handlers, each test opening a
 * database, ran before the unit test that names the line and fails in milliseconds. A whole-scope
 * run measured it (docs/mutation.md): kills that came only after more than ten passing tests were
 * 5 % of the kills and two thirds of the time spent on kills.
 *
 * The order, within each project (projects still run one after another):
 * 1. a file that failed in its last run: Stryker tests a file's mutants in source order, so the
 *    file that killed the last mutant is the likeliest to kill the next, the neighbour on the
 *    same line or in the same function (vitest's own rule, kept);
 * 2. then by the file's duration in a whole run, shortest first. Vitest's results cache holds
 *    each file's duration in its last run, which for a mutant is only its covering tests; the
 *    longest duration seen for a file stands for the whole run (Stryker's first run is one);
 * 3. a file with no duration yet (new since the last run) before those with one, as it is the
 *    likeliest to be a test written for a mutant; among such files, the smallest first.
 */
export class ShortestFirstSequencer extends BaseSequencer {
  private readonly longest = new Map<string, number>();

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const root = this.ctx.config.root;
    const keyOf = (spec: TestSpecification) =>
      `${spec.project.name}:${path.relative(root, spec.moduleId)}`;
    const rank = new Map<TestSpecification, { failed: boolean; duration?: number; size: number }>();
    for (const spec of files) {
      const key = keyOf(spec);
      const last = cache.getFileTestResults(key);
      if (last) this.longest.set(key, Math.max(this.longest.get(key) ?? 0, last.duration));
      rank.set(spec, {
        failed: last?.failed ?? false,
        duration: this.longest.get(key),
        size: cache.getFileStats(key)?.size ?? sizeOf(spec.moduleId),
      });
    }
    const projectOrder = (a: TestSpecification, b: TestSpecification) =>
      a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
      (a.project.name === b.project.name ? 0 : a.project.name < b.project.name ? -1 : 1);
    return [...files].sort((a, b) => {
      const byProject = projectOrder(a, b);
      if (byProject !== 0) return byProject;
      const ra = rank.get(a);
      const rb = rank.get(b);
      if (!ra || !rb) return 0;
      if (ra.failed !== rb.failed) return ra.failed ? -1 : 1;
      if (ra.duration !== undefined && rb.duration !== undefined) return ra.duration - rb.duration;
      if (ra.duration === undefined && rb.duration !== undefined) return -1;
      if (ra.duration !== undefined && rb.duration === undefined) return 1;
      return ra.size - rb.size;
    });
  }
}

function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return Number.MAX_SAFE_INTEGER;
  }
}
