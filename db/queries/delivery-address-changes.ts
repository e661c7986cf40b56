/**
 * change_delivery_address's table (delivery_address_changes: one row per change, UNIQUE
 * operation_id: one change per action) through the shared write-once helpers, and its
 * compare-and-set on the order's address. The table is in db/schema and the migrations.
 */
import "server-only";
import { desc } from "drizzle-orm";
import { deliveryAddressChanges } from "../schema";
import { compareAndSetOrder, findByOperationId, findForOrder, insertOnce } from "./write-once";

export type AddressChangeRow = typeof deliveryAddressChanges.$inferSelect;
export type NewAddressChange = typeof deliveryAddressChanges.$inferInsert;

/** An address as the order's columns hold it. */
type Address = {
  name: string;
  line1: string;
  line2: string | null;
  postalCode: string;
  city: string;
  country: string;
};

/** The order's latest address change, only if the order is this user's. */
export async function getLatestAddressChangeForUser({
  orderId,
  userId,
}: {
  orderId: string;
  userId: string;
}): Promise<AddressChangeRow | null> {
  const rows = await findForOrder(deliveryAddressChanges, {
    orderId,
    userId,
    newest: [desc(deliveryAddressChanges.createdAt), desc(deliveryAddressChanges.id)],
  });
  return rows[0] ?? null;
}

export const getAddressChangeByOperationId = ({ operationId }: { operationId: string }) =>
  findByOperationId(deliveryAddressChanges, operationId);

/** The new change, or null when this action's change is already there. */
export const insertAddressChangeIfAbsent = (row: NewAddressChange) =>
  insertOnce(deliveryAddressChanges, deliveryAddressChanges.operationId, row);

/** Every address change of an order (the table-driven suites read what a commit wrote). */
export const listAddressChangesForOrder = (orderId: string) =>
  findForOrder(deliveryAddressChanges, { orderId });

/**
 * Compare-and-set: the order gets the new address (version bumped) only if it is still this
 * user's, still `processing` and still at `expectedVersion`. False means it moved on.
 */
export const changeOrderAddressIfUnchanged = ({
  address,
  ...args
}: {
  orderId: string;
  userId: string;
  expectedVersion: number;
  address: Address;
  now: Date;
}) =>
  compareAndSetOrder({
    ...args,
    status: "processing",
    set: {
      deliveryName: address.name,
      deliveryLine1: address.line1,
      deliveryLine2: address.line2,
      deliveryPostalCode: address.postalCode,
      deliveryCity: address.city,
      deliveryCountry: address.country,
    },
  });
