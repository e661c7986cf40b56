/**
 * A write tool's test table (its folder's test-table.ts), run by the table-driven suites:
 * tests/integration/action-core/write-tools.test.ts runs every guarantee of the action core
 * against each `case`, and tests/unit/write-tool-describe.test.ts describes each `sample` in both
 * languages. The suites collect every tool folder's table and fail for a write tool without one.
 * Test data only: nothing in the app imports it.
 */
import type { Db } from "@/db";

export type WriteToolCase = {
  tool: string;
  /** Anna's order the tool may act on, and valid arguments for it. */
  orderId: string;
  args: Record<string, unknown>;
  /** Boris's order of the same kind (his own; Anna must never reach it). */
  borisOrderId: string;
  /** The rows the tool's commit writes for an order. */
  effects(db: Db, orderId: string): Promise<{ id: string; operationId: string }[]>;
  /** Changes the target between plan and Confirm (a real change, through real code). */
  changeTarget(db: Db, orderId: string, staffId: string): Promise<void>;
  /** The order's status once the action executed. */
  statusAfter: string;
};

/** One stored action (arguments, plan, result). */
export type WriteToolSample = {
  arguments: Record<string, unknown>;
  plan: Record<string, unknown>;
  result: Record<string, unknown> & { createdNow: boolean };
};

export type WriteToolTestTable = { case: WriteToolCase; sample: WriteToolSample };
