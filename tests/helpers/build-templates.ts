/**
 * Builds this run's template database for one dialect (TEST_DIALECT), with the demo seed, before
 * any test file starts: tests/helpers/global-setup.ts runs it once per dialect, in a process of
 * its own (the main vitest process never opens a database of the product).
 *
 * Built lazily instead, the first test file of each worker would build it inside its own
 * beforeEach: two workers then built it at once, and on a loaded machine that could outlast the
 * hook timeout, leaving a build running into the next file of a process that files share.
 */

import { closeDb } from "@/db";
// Renamed: not a React hook, whatever Biome's hook rule takes a "use" prefix for.
import { dropTestDatabases, useTestDatabase as openTestDatabase } from "../../harness/db";

await openTestDatabase({ seed: true });
await closeDb();
if (process.env.TEST_DIALECT === "postgres") await dropTestDatabases();
