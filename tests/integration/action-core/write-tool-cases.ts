/**
 * One row per registered write tool: an eligible target of Anna's, valid arguments, how to read
 * the tool's effect, and a change to the target between plan and Confirm that must make the
 * action stale. tests/integration/action-core/write-tools.test.ts runs every guarantee of the
 * action core against each row; a new write tool adds one row here.
 */
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { one } from "@/db";
import { orderCancellations, orders, returnRequests } from "@/db/schema";
import { markOrderShipped } from "@/lib/orders/ship";

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

export const WRITE_TOOL_CASES: WriteToolCase[] = [
  {
    tool: "create_return_request",
    orderId: "7718",
    args: { orderId: "7718", reason: "damaged", comment: null },
    borisOrderId: "4410",
    effects: (db, orderId) =>
      db.select().from(returnRequests).where(eq(returnRequests.orderId, orderId)),
    // Any change to the order (here: a corrected delivery date) moves its version.
    changeTarget: async (db, orderId) => {
      const o = await db.select().from(orders).where(eq(orders.id, orderId)).then(one);
      await db
        .update(orders)
        .set({ version: o.version + 1, updatedAt: new Date() })
        .where(eq(orders.id, orderId));
    },
    statusAfter: "delivered",
  },
  {
    tool: "cancel_order",
    orderId: "3004",
    args: { orderId: "3004", reason: "ordered_by_mistake", comment: null },
    borisOrderId: "1187",
    effects: (db, orderId) =>
      db.select().from(orderCancellations).where(eq(orderCancellations.orderId, orderId)),
    // The warehouse ships it (staff's audited "mark shipped").
    changeTarget: async (_db, orderId, staffId) => {
      await markOrderShipped({ orderId, staffId });
    },
    statusAfter: "cancelled",
  },
];
