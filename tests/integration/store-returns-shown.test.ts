/**
 * A return requested through us shows on a store's order (the orders page's badge,
 * get_order_status, create_return_request's existing request) only when the store has it now:
 * Medusa's order, as its Admin API answers it, lists a requested or received return carrying our
 * operation id. Our own record alone (written at the confirm, kept when the store refused the
 * return) shows nothing. The order is mapped by the real Medusa mapping (toStoreOrder) from an
 * answer in Medusa's shape; the records are real rows in a real SQLite file.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { insertStoreOperationIfAbsent } from "@/db/queries/store-operations";
import { withStoreReturns } from "@/lib/store";
import { RETURN_METADATA_KEY, toStoreOrder } from "@/lib/store/medusa";
import { userIdOf, useTestDatabase } from "../helpers/db";

let anna: string;
let boris: string;

/** One of the order's returns at Medusa; ours carry our operation id in their metadata. */
const returnAtStore = (operationId: string | null, status = "requested") => ({
  id: `return_${operationId ?? "admin"}_${status}`,
  status,
  metadata: operationId ? { [RETURN_METADATA_KEY]: operationId } : null,
});

/** Medusa's answer for one order (GET /admin/orders with our fields), with these returns. */
function medusaOrder(ref: string, displayId: number, returns: ReturnType<typeof returnAtStore>[]) {
  return {
    id: ref,
    display_id: displayId,
    status: "completed",
    version: 3,
    created_at: "2026-11-20T10:00:00.000Z",
    updated_at: "2026-11-30T10:00:00.000Z",
    canceled_at: null,
    currency_code: "eur",
    total: 129,
    metadata: null,
    customer_id: "cus_ANNA",
    fulfillment_status: "delivered",
    items: [{ id: "ordli_1", title: "Trail Running Shoes", quantity: 1, unit_price: 129 }],
    shipping_address: null,
    fulfillments: [
      { shipped_at: "2026-11-25T10:00:00.000Z", delivered_at: "2026-11-28T10:00:00.000Z" },
    ],
    returns,
  };
}

async function ourReturn(userId: string, ref: string, displayId: string, operationId: string) {
  await insertStoreOperationIfAbsent({
    id: `RR-${operationId.toUpperCase()}`,
    businessKey: `medusa:${ref}:return:${operationId}`,
    backend: "medusa",
    kind: "return",
    storeOrderRef: ref,
    orderId: displayId,
    userId,
    reason: "damaged",
    comment: null,
    refundAmountMinor: 12900,
    refundCurrency: "EUR",
    refundDestination: "the original payment method",
    actionId: operationId,
    operationId,
    createdAt: new Date("2026-11-30T11:00:00.000Z"),
  });
}

describe("a store's return, shown from the store's returns and labelled from our records", () => {
  beforeAll(async () => {
    await useTestDatabase();
    anna = await userIdOf("anna@example.com");
    boris = await userIdOf("boris@example.com");
    await ourReturn(anna, "order_A", "1007", "op-shown");
    await ourReturn(anna, "order_B", "1008", "op-refused");
    await ourReturn(anna, "order_C", "1012", "op-cancelled");
    await ourReturn(boris, "order_D", "1020", "op-boris");
  });

  it("the store has our requested (or received) return: the order carries our request", async () => {
    for (const status of ["requested", "received", "partially_received"]) {
      const order = toStoreOrder(
        medusaOrder("order_A", 1007, [returnAtStore("op-shown", status)]),
        anna,
      );
      const [shown] = await withStoreReturns(anna, [order]);
      expect(shown?.returnRequest, status).toMatchObject({
        id: "RR-OP-SHOWN",
        orderId: "1007",
        reason: "damaged",
        refundAmountMinor: 12900,
        operationId: "op-shown",
      });
      // Everything else about the order is the store's, unchanged.
      expect({ ...shown, returnRequest: null }).toEqual(order);
    }
  });

  it("our record without the store's return shows nothing: refused, cancelled, a draft, or another customer's", async () => {
    const cases = [
      // The relay has not made it yet, or the store refused it (order changed at the store).
      toStoreOrder(medusaOrder("order_B", 1008, []), anna),
      // Someone cancelled it in Medusa's admin; an earlier attempt's draft is not a return either.
      toStoreOrder(
        medusaOrder("order_C", 1012, [
          returnAtStore("op-cancelled", "canceled"),
          returnAtStore("op-cancelled", "open"),
        ]),
        anna,
      ),
      // A return made in Medusa's admin carries no operation id of ours.
      toStoreOrder(medusaOrder("order_A", 1007, [returnAtStore(null)]), anna),
      // Boris's record under Anna's order: not hers.
      toStoreOrder(medusaOrder("order_D", 1020, [returnAtStore("op-boris")]), anna),
      // Our id on another order's return at the store: not this order's record.
      toStoreOrder(medusaOrder("order_B", 1008, [returnAtStore("op-shown")]), anna),
    ];
    const shown = await withStoreReturns(anna, cases);
    expect(shown.map((o) => o.returnRequest)).toEqual([null, null, null, null, null]);
  });

  it("a list mixes both, and a missing order stays missing", async () => {
    const list = await withStoreReturns(anna, [
      toStoreOrder(medusaOrder("order_A", 1007, [returnAtStore("op-shown")]), anna),
      toStoreOrder(medusaOrder("order_B", 1008, []), anna),
      null,
    ]);
    expect(list.map((o) => o?.returnRequest?.id ?? null)).toEqual(["RR-OP-SHOWN", null, null]);
  });
});
