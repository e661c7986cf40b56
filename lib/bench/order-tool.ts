/**
 * `npm run bench:paced` only: the status question's tool for the two comparison routes (the bare
 * AI SDK server in bench/paced/bare-server.ts and GET /api/bench/model), so both run the same tool
 * as the product, minus what the product adds to it (the customer, the database, the audit). Its
 * answer has the shape and about the size of get_order_status's. Free of "server-only": the bare
 * server is a plain Node process.
 */
import { tool } from "ai";
import { z } from "zod";

export const benchOrderTools = {
  get_order_status: tool({
    description: "Look up one of the customer's orders by its four-digit number.",
    inputSchema: z.strictObject({ orderId: z.string().regex(/^\d{4}$/) }),
    execute: async ({ orderId }) => ({
      orderId,
      status: "shipped",
      placedAt: "2026-11-20T10:00:00.000Z",
      shippedAt: "2026-11-22T10:00:00.000Z",
      deliveredAt: null,
      estimatedDeliveryAt: "2026-12-03T10:00:00.000Z",
      items: [{ name: "Barista Pro coffee machine", quantity: 1, unitPrice: 24900 }],
      total: { amount: 24900, currency: "EUR" },
      returnRequest: null,
      customerDeliveryNote: null,
    }),
  }),
};
