/**
 * change_delivery_address's table (delivery_address_changes: one row per change, the business
 * record of the action) and its compare-and-set on the order. SQL for this tool lives here, with
 * the tool; the table itself is in db/schema/{sqlite,pg}.ts and the migrations.
 */
import "server-only";
import { and, desc, eq, sql } from "drizzle-orm";
import { first, getDb } from "@/db";
import { deliveryAddressChanges, orders } from "@/db/schema";
import type { Address } from "@/lib/orders/address";

export type AddressChangeRow = typeof deliveryAddressChanges.$inferSelect;
export type NewAddressChange = typeof deliveryAddressChanges.$inferInsert;

/** The order's latest address change, only if the order is this user's. */
export async function getLatestAddressChangeForUser({
  orderId,
  userId,
}: {
  orderId: string;
  userId: string;
}): Promise<AddressChangeRow | null> {
  return getDb()
    .select()
    .from(deliveryAddressChanges)
    .where(
      and(eq(deliveryAddressChanges.orderId, orderId), eq(deliveryAddressChanges.userId, userId)),
    )
    .orderBy(desc(deliveryAddressChanges.createdAt), desc(deliveryAddressChanges.id))
    .limit(1)
    .then(first);
}

export async function getAddressChangeByOperationId({
  operationId,
}: {
  operationId: string;
}): Promise<AddressChangeRow | null> {
  return getDb()
    .select()
    .from(deliveryAddressChanges)
    .where(eq(deliveryAddressChanges.operationId, operationId))
    .then(first);
}

/**
 * Inserts the change unless this action already made one (UNIQUE operation_id: one change per
 * action). Returns the new row, or null when the action's change is already there.
 */
export async function insertAddressChangeIfAbsent(
  row: NewAddressChange,
): Promise<AddressChangeRow | null> {
  return getDb()
    .insert(deliveryAddressChanges)
    .values(row)
    .onConflictDoNothing({ target: deliveryAddressChanges.operationId })
    .returning()
    .then(first);
}

/**
 * Compare-and-set: the order gets the new address (version bumped) only if it is still this
 * user's, still `processing` and still at `expectedVersion`. False means it moved on.
 */
export async function changeOrderAddressIfUnchanged({
  orderId,
  userId,
  expectedVersion,
  address,
  now,
}: {
  orderId: string;
  userId: string;
  expectedVersion: number;
  address: Address;
  now: Date;
}): Promise<boolean> {
  const res = await getDb()
    .update(orders)
    .set({
      deliveryName: address.name,
      deliveryLine1: address.line1,
      deliveryLine2: address.line2,
      deliveryPostalCode: address.postalCode,
      deliveryCity: address.city,
      deliveryCountry: address.country,
      version: sql`${orders.version} + 1`,
      updatedAt: now,
    })
    .where(
      and(
        eq(orders.id, orderId),
        eq(orders.userId, userId),
        eq(orders.status, "processing"),
        eq(orders.version, expectedVersion),
      ),
    )
    .returning({ id: orders.id });
  return res.length === 1;
}
