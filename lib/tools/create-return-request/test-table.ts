/** create_return_request's rows in the table-driven suites (lib/tools/test-table-types.ts). */
import { touchOrder } from "@/db/queries/orders";
import { listReturnRequestsForOrder } from "@/db/queries/return-requests";
import type { WriteToolTestTable } from "../test-table-types";

export const testTable: WriteToolTestTable = {
  case: {
    tool: "create_return_request",
    orderId: "7718",
    args: { orderId: "7718", reason: "damaged", comment: null },
    borisOrderId: "4410",
    effects: (_db, orderId) => listReturnRequestsForOrder(orderId),
    // Any change to the order (here: a corrected delivery date) moves its version.
    changeTarget: (_db, orderId) => touchOrder({ orderId, now: new Date() }),
    statusAfter: "delivered",
  },
  sample: {
    arguments: { orderId: "7718", reason: "damaged", comment: null },
    plan: {
      effect: "create_return_request",
      order: {
        id: "7718",
        status: "delivered",
        deliveredAt: "2026-05-01T10:00:00.000Z",
        items: [{ name: "Barista Pro coffee machine", quantity: 1, unitPrice: 25890 }],
        total: { amount: 25890, currency: "EUR" },
      },
      eligible: true,
      windowEndsAt: "2026-05-31T10:00:00.000Z",
      refund: { amount: 25890, currency: "EUR", destination: "Visa •••• 4242" },
      existingRequest: null,
      externalRequests: 0,
    },
    result: {
      requestId: "RR-TEST",
      orderId: "7718",
      status: "created",
      createdNow: true,
      reason: "damaged",
      comment: null,
      refund: { amount: 25890, currency: "EUR", destination: "Visa •••• 4242" },
      createdAt: "2026-05-05T10:00:00.000Z",
    },
  },
};
