/** exchange_items' rows in the table-driven suites (lib/tools/test-table-types.ts). */
import { listExchangesForOrder } from "@/db/queries/item-exchanges";
import { markOrderShipped } from "@/lib/orders/ship";
import type { WriteToolTestTable } from "../test-table-types";

export const testTable: WriteToolTestTable = {
  case: {
    tool: "exchange_items",
    // Anna's T-shirt in M, not shipped yet: to S, €5.00 back.
    orderId: "4704",
    args: { orderId: "4704", to: "S" },
    borisOrderId: "4703",
    effects: (_db, orderId) => listExchangesForOrder(orderId),
    // The warehouse ships it (staff's audited "mark shipped").
    changeTarget: async (_db, orderId, staffId) => {
      await markOrderShipped({ orderId, staffId });
    },
    statusAfter: "processing",
  },
  sample: {
    arguments: { orderId: "4702", line: "shoes", to: "bigger" },
    plan: {
      effect: "exchange_items",
      order: { id: "4702", status: "delivered" },
      kind: "exchange",
      line: {
        lineId: "12",
        name: "Trail running shoes",
        quantity: 1,
        unitPrice: 12000,
        from: { variantId: "trail-shoes-42", options: { size: "42" } },
      },
      to: { variantId: "trail-shoes-43", options: { size: "43" }, unitPrice: 12000 },
      windowEndsAt: "2026-05-31T10:00:00.000Z",
      refund: { amount: 0, currency: "EUR", destination: "Visa •••• 4242" },
      eligible: true,
      externalRequests: 0,
    },
    result: {
      exchangeId: "EX-TEST",
      orderId: "4702",
      kind: "exchange",
      createdNow: true,
      lineId: "12",
      quantity: 1,
      fromVariantId: "trail-shoes-42",
      toVariantId: "trail-shoes-43",
      refund: { amount: 0, currency: "EUR", destination: "Visa •••• 4242" },
      exchangedAt: "2026-05-05T10:00:00.000Z",
    },
  },
};
