/**
 * `ledger`: the payment provider of a store with no payment account (the default without
 * STRIPE_SECRET_KEY; `npm start` offline). A refund is a row of refunds_ledger, written by the
 * relay in a transaction of its own, after the confirm, exactly as a call to Stripe would be: the
 * effect goes through the same outbox, states and audit events. It honours idempotency keys the
 * way a provider should (one row per key), so a retry after an unknown outcome never doubles it.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { insertLedgerRefundOnce, listLedgerRefundsByOperation } from "@/db/queries/refunds-ledger";
import type { PaymentsProvider } from "./types";

export const ledgerProvider: PaymentsProvider = {
  name: "ledger",
  async refund(payload, ref) {
    try {
      const row = await insertLedgerRefundOnce({
        id: `rl_${randomUUID().replaceAll("-", "").slice(0, 24)}`,
        idempotencyKey: ref.idempotencyKey,
        operationId: ref.operationId,
        actionId: ref.actionId,
        orderId: payload.orderId,
        paymentRef: payload.paymentRef,
        amountMinor: payload.amount,
        currency: payload.currency,
        createdAt: new Date(),
      });
      // The same key with other parameters is refused, as Stripe refuses it.
      if (row.amountMinor !== payload.amount || row.orderId !== payload.orderId)
        return { kind: "definite", code: "idempotency_error" };
      return { kind: "succeeded", providerRef: row.id };
    } catch {
      // Our own database did not answer: whether the row committed is unknown.
      return { kind: "indeterminate", code: "ledger_unavailable" };
    }
  },
  async findRefund(_payload, ref) {
    try {
      const rows = await listLedgerRefundsByOperation({ operationId: ref.operationId });
      return rows[0] ? { kind: "found", providerRef: rows[0].id } : { kind: "absent" };
    } catch {
      return { kind: "indeterminate", code: "ledger_unavailable" };
    }
  },
};
