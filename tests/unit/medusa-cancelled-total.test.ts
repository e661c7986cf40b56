/**
 * A cancelled order at Medusa keeps what it cost on the orders page. Medusa computes an order's
 * `total` over what is still ordered, so once cancelled it answers 0; the mapping shows the items'
 * price instead. Tested at the mapping's boundary (the order as Medusa's API returns it), not at
 * a running Medusa.
 */
import { describe, expect, it } from "vitest";
import { toStoreOrder } from "@/lib/store/medusa";

const order = (over: Record<string, unknown>) =>
  ({
    id: "order_X",
    display_id: 1187,
    status: "completed",
    version: 2,
    created_at: "2026-11-20T10:00:00.000Z",
    updated_at: "2026-11-30T10:00:00.000Z",
    canceled_at: null,
    currency_code: "eur",
    total: 89.9,
    metadata: null,
    customer_id: "cus_BORIS",
    fulfillment_status: "not_fulfilled",
    items: [
      { id: "ordli_1", title: "Linen bed sheet", quantity: 2, unit_price: 34.95 },
      { id: "ordli_2", title: "Pillow case", quantity: 1, unit_price: 20 },
    ],
    shipping_address: null,
    fulfillments: [],
    returns: [],
    ...over,
  }) as Parameters<typeof toStoreOrder>[0];

describe("a Medusa order's total", () => {
  it("a cancelled order whose total Medusa reports as 0 shows what its items cost", () => {
    const cancelled = toStoreOrder(
      order({ status: "canceled", canceled_at: "2026-11-21T10:00:00.000Z", total: 0 }),
      "boris",
    );
    expect(cancelled).toMatchObject({ status: "cancelled", totalMinor: 8990, currency: "EUR" });
  });

  it("any other order keeps Medusa's own total (shipping and discounts included)", () => {
    expect(toStoreOrder(order({ total: 94.9 }), "boris").totalMinor).toBe(9490);
    expect(toStoreOrder(order({ status: "canceled", total: 12 }), "boris").totalMinor).toBe(1200);
  });
});
