/** One stored action per registered write tool (arguments, plan, result), for table-driven tests. */
export const SAMPLES: Record<
  string,
  {
    arguments: Record<string, unknown>;
    plan: Record<string, unknown>;
    result: Record<string, unknown> & { createdNow: boolean };
  }
> = {
  create_return_request: {
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
  cancel_order: {
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
