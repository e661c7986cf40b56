/** cancel_order's rows in the table-driven suites (lib/tools/test-table-types.ts). */
import { listCancellationsForOrder } from "@/db/queries/cancellations";
import { markOrderShipped } from "@/lib/orders/ship";
import type { WriteToolTestTable } from "../test-table-types";

export const testTable: WriteToolTestTable = {
  case: {
    tool: "cancel_order",
    orderId: "3004",
    args: { orderId: "3004", reason: "ordered_by_mistake", comment: null },
    borisOrderId: "1187",
    effects: (_db, orderId) => listCancellationsForOrder(orderId),
    // The warehouse ships it (staff's audited "mark shipped").
    changeTarget: async (_db, orderId, staffId) => {
      await markOrderShipped({ orderId, staffId });
    },
    statusAfter: "cancelled",
  },
  sample: {
    arguments: { orderId: "3004", reason: "ordered_by_mistake", comment: null },
    plan: {
      effect: "cancel_order",
      order: {
        id: "3004",
        status: "processing",
        placedAt: "2026-05-04T10:00:00.000Z",
        items: [{ name: "Cast iron pan", quantity: 1, unitPrice: 4500 }],
        total: { amount: 4500, currency: "EUR" },
      },
      eligible: true,
      refund: { amount: 4500, currency: "EUR", destination: "Visa •••• 4242" },
      externalRequests: 0,
    },
    result: {
      cancellationId: "CN-TEST",
      orderId: "3004",
      status: "cancelled",
      createdNow: true,
      reason: "ordered_by_mistake",
      comment: null,
      refund: { amount: 4500, currency: "EUR", destination: "Visa •••• 4242" },
      cancelledAt: "2026-05-05T10:00:00.000Z",
    },
  },
};
