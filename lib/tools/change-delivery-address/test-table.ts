/** change_delivery_address's rows in the table-driven suites (lib/tools/test-table-types.ts). */
import { listAddressChangesForOrder } from "@/db/queries/delivery-address-changes";
import { markOrderShipped } from "@/lib/orders/ship";
import type { WriteToolTestTable } from "../test-table-types";

const TO = {
  name: "Anna Petrova",
  line1: "Torstraße 1",
  line2: null,
  postalCode: "10119",
  city: "Berlin",
  country: "DE",
};

export const testTable: WriteToolTestTable = {
  case: {
    tool: "change_delivery_address",
    orderId: "3004",
    args: { orderId: "3004", address: TO },
    borisOrderId: "1187",
    effects: (_db, orderId) => listAddressChangesForOrder(orderId),
    // The warehouse ships it (staff's audited "mark shipped").
    changeTarget: async (_db, orderId, staffId) => {
      await markOrderShipped({ orderId, staffId });
    },
    statusAfter: "processing",
  },
  sample: {
    arguments: { orderId: "3004", address: TO },
    plan: {
      effect: "change_delivery_address",
      order: { id: "3004", status: "processing", placedAt: "2026-05-04T10:00:00.000Z" },
      from: {
        name: "Anna Petrova",
        line1: "Hauptstraße 12",
        line2: null,
        postalCode: "10115",
        city: "Berlin",
        country: "DE",
      },
      to: TO,
      eligible: true,
      externalRequests: 1,
    },
    result: {
      changeId: "AC-TEST",
      orderId: "3004",
      createdNow: true,
      from: {
        name: "Anna Petrova",
        line1: "Hauptstraße 12",
        line2: null,
        postalCode: "10115",
        city: "Berlin",
        country: "DE",
      },
      to: TO,
      changedAt: "2026-05-05T10:00:00.000Z",
    },
  },
};
