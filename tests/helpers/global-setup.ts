/**
 * vitest's globalSetup, once per run in the main process: opens the run's template databases
 * (harness/db-template.ts) before any worker starts, and drops them when the run ends.
 */
import { openTemplateRun } from "../../harness/db-template";

export default async function setup() {
  return openTemplateRun();
}
