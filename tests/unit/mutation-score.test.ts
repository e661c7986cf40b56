import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { changedFilesScore } from "../../scripts/mutation-score.mjs";

/**
 * The score CI's mutation step judges (npm run test:mutation): the changed files' own, not every
 * file's in the report. The report has the shape of Stryker's JSON report's `files`, with
 * statuses chosen so the expected scores are known.
 */
type FileResult = { language: string; source: string; mutants: object[] };

const withStatuses = (statuses: string[]): FileResult => ({
  language: "typescript",
  source: "export const x = 1;\n",
  mutants: statuses.map((status, i) => ({
    id: String(i),
    mutatorName: "BooleanLiteral",
    location: { start: { line: 1, column: 1 }, end: { line: 1, column: 2 } },
    status,
  })),
});

const full = "lib/a.ts";
const below = "lib/b.ts";
const files: Record<string, FileResult> = {
  [full]: withStatuses(["Killed", "Killed", "Timeout", "Ignored"]),
  // 1 detected of 4 counted: 25 %.
  [below]: withStatuses(["Killed", "Survived", "Survived", "NoCoverage"]),
  // Never changed in these tests: it must not count.
  "lib/other.ts": withStatuses(["Survived", "Survived", "Survived", "Survived"]),
};

describe("the changed files' mutation score", () => {
  it("is that file's own, whatever the other files score", () => {
    expect(changedFilesScore(files, [full]).score).toBe(100);
    expect(changedFilesScore(files, [below]).score).toBe(25);
  });

  it("pools several changed files' mutants, not their scores", () => {
    // 4 detected of 7 counted (the ignored one left out).
    expect(changedFilesScore(files, [full, below])).toEqual({
      score: expect.closeTo((100 * 4) / 7, 9),
      killed: 3,
      timeout: 1,
      survived: 2,
      noCoverage: 1,
    });
  });

  it("is 100 for changed files with no mutant (not in the report)", () => {
    expect(changedFilesScore(files, ["lib/no-such-file.ts"]).score).toBe(100);
  });
});
