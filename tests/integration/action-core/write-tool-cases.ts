/**
 * One row per registered write tool, from its folder's test table (lib/tools/<tool>/test-table.ts):
 * an eligible target of Anna's, valid arguments, how to read the tool's effect, and a change to
 * the target between plan and Confirm that must make the action stale.
 * tests/integration/action-core/write-tools.test.ts runs every guarantee of the action core
 * against each row, and fails for a registered write tool without one.
 */
import type { WriteToolCase, WriteToolTestTable } from "@/lib/tools/test-table-types";

export type { WriteToolCase };

const tables = import.meta.glob<WriteToolTestTable>("../../../lib/tools/*/test-table.ts", {
  eager: true,
  import: "testTable",
});

export const WRITE_TOOL_CASES: WriteToolCase[] = Object.values(tables).map((t) => t.case);
