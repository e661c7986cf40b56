import { afterAll } from "vitest";
import { resetEnv } from "@/lib/env";

// Runs first in every test file of the mutation run, where files share one process and module
// graph: whatever a file put into process.env is undone when it ends, so the next file starts
// from the same environment as it would alone.
const before = { ...process.env };
afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in before)) delete process.env[key];
  Object.assign(process.env, before);
  resetEnv();
});
