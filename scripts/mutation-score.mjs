// The score npm run test:mutation judges: the changed files' own, over Stryker's JSON report
// (mutation-testing-metrics, the library Stryker scores with). Stryker's exit code scores every
// file in the incremental report instead, so a change to a file at 100 % would fail for files it
// never touched.
import { calculateMetrics } from "mutation-testing-metrics";

/**
 * `reportFiles` is the report's `files`; `changed` the changed files' paths as its keys spell
 * them. A changed file with no mutant is not in the report and counts for nothing; with no
 * mutant at all the score is 100 (nothing could survive).
 */
export function changedFilesScore(reportFiles, changed) {
  const mine = Object.fromEntries(changed.map((f) => [f, reportFiles[f]]).filter(([, r]) => r));
  const { mutationScore, killed, timeout, survived, noCoverage } = calculateMetrics(mine).metrics;
  return {
    score: Number.isNaN(mutationScore) ? 100 : mutationScore,
    killed,
    timeout,
    survived,
    noCoverage,
  };
}
