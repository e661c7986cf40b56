/**
 * The Medusa adapter's own check of `customer_id` on the orders the store sends back. A real
 * Medusa filters by customer already, so every other test passes without our check; here the
 * fault proxy drops the filter on the way (`unfiltered`), and the store's answer holds every
 * customer's orders. The adapter must still list and find the customer's own orders only.
 * Against the REAL Medusa server of the global setup.
 */
import { describe, expect, inject, it } from "vitest";
import { store, storeCustomer } from "@/lib/store";
import { admin, storeSuite } from "./harness";

const medusa = inject("medusa");
const suite = storeSuite({ MEDUSA_TIMEOUT_MS: "10000", EFFECTS_LEASE_SECONDS: "120" });
const LIST = /^GET \/admin\/orders$/;

describe("the Medusa adapter's own customer check", () => {
  it("an answer holding another customer's orders: listed and found for their own customer only", async () => {
    const anna = await storeCustomer(suite.core.anna);
    const annaStoreId = medusa.customers.find(
      (c) => c.email === "anna@example.com",
    )!.storeCustomerId;
    expect(anna.storeCustomerId).toBe(annaStoreId);
    const borisOrder = medusa.orders.find((o) => o.customerEmail === "boris@example.com")!;

    // What the unfiltered answer really holds: Boris's orders among Anna's.
    const all = await admin<{ orders: { display_id: number; customer_id: string }[] }>(
      "/admin/orders?fields=display_id,customer_id&limit=100",
    );
    expect(all.orders.some((o) => o.customer_id !== annaStoreId)).toBe(true);
    expect(all.orders.some((o) => String(o.display_id) === borisOrder.displayId)).toBe(true);
    const annaOrders = all.orders
      .filter((o) => o.customer_id === annaStoreId)
      .map((o) => String(o.display_id))
      .sort();
    expect(annaOrders.length).toBeGreaterThan(0);

    suite.proxy.fault(LIST, "unfiltered");
    const listed = await store().listOrders(anna);
    expect(listed.map((o) => o.id).sort()).toEqual(annaOrders);

    suite.proxy.fault(LIST, "unfiltered");
    expect(await store().findOrder(anna, borisOrder.displayId)).toBeNull();
    // The fault fired each time: nothing armed is left over.
    suite.proxy.fault(LIST, "unfiltered");
    expect(await store().findOrder(anna, annaOrders[0]!)).not.toBeNull();
  });
});
