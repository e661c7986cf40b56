import type { PendingAction } from "@/lib/chat-client/schemas";

/** A proposal as GET /api/chats/{id} and the stream carry it (docs/api.md, docs/domain.md plan). */
export function proposal(overrides: Partial<PendingAction> = {}): PendingAction {
  return {
    id: "act_1",
    chatId: "chat_1",
    tool: "create_return_request",
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
    result: null,
    status: "pending",
    view: {
      title: "Confirm your return request",
      summary: "If you confirm, we will create a return request for order 7718.",
      subject: "Return request for order 7718",
      approval: "Approving creates the customer’s return request for order 7718.",
      rows: [{ key: "order", label: "Order", value: "7718" }],
      amount: { key: "refund", label: "Refund", value: "€258.90", detail: "to Visa •••• 4242" },
      warning: null,
      outcome: null,
    },
    createdAt: "2026-05-05T10:00:00.000Z",
    expiresAt: "2026-05-05T10:15:00.000Z",
    decidedAt: null,
    ...overrides,
  };
}
