import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { first, getDb } from "@/db";
import { orderCancellations, orders } from "@/db/schema";

export type CancellationRow = typeof orderCancellations.$inferSelect;
export type NewCancellation = typeof orderCancellations.$inferInsert;

/** The order's cancellation, only if the order is this user's. */
export async function getCancellationForUser({
  orderId,
  userId,
}: {
  orderId: string;
  userId: string;
}): Promise<CancellationRow | null> {
  return getDb()
    .select()
    .from(orderCancellations)
    .where(and(eq(orderCancellations.orderId, orderId), eq(orderCancellations.userId, userId)))
    .then(first);
}

export async function getCancellationByOrderId({
  orderId,
}: {
  orderId: string;
}): Promise<CancellationRow | null> {
  return getDb()
    .select()
    .from(orderCancellations)
    .where(eq(orderCancellations.orderId, orderId))
    .then(first);
}

export async function getCancellationByOperationId({
  operationId,
}: {
  operationId: string;
}): Promise<CancellationRow | null> {
  return getDb()
    .select()
    .from(orderCancellations)
    .where(eq(orderCancellations.operationId, operationId))
    .then(first);
}

/**
 * Inserts a cancellation unless the order already has one (UNIQUE order_id decides, so a race can
 * never make a second row). Returns the new row, or null when the order already had one.
 */
export async function insertCancellationIfAbsent(
  row: NewCancellation,
): Promise<CancellationRow | null> {
  return getDb()
    .insert(orderCancellations)
    .values(row)
    .onConflictDoNothing({ target: orderCancellations.orderId })
    .returning()
    .then(first);
}

/**
 * Compare-and-set: the order becomes `cancelled` (version bumped) only if it is still this
 * user's, still `processing` and still at `expectedVersion`. False means it moved on (shipped).
 */
export async function cancelOrderIfUnchanged({
  orderId,
  userId,
  expectedVersion,
  now,
}: {
  orderId: string;
  userId: string;
  expectedVersion: number;
  now: Date;
}): Promise<boolean> {
  const res = await getDb()
    .update(orders)
    .set({ status: "cancelled", version: sql`${orders.version} + 1`, updatedAt: now })
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
