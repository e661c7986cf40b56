/**
 * One stored action per registered write tool (arguments, plan, result), for table-driven tests:
 * each from its folder's test table (lib/tools/<tool>/test-table.ts).
 */
import type { WriteToolSample, WriteToolTestTable } from "@/lib/tools/test-table-types";

const tables = import.meta.glob<WriteToolTestTable>("../../lib/tools/*/test-table.ts", {
  eager: true,
  import: "testTable",
});

export const SAMPLES: Record<string, WriteToolSample> = Object.fromEntries(
  Object.values(tables).map((t) => [t.case.tool, t.sample]),
);
