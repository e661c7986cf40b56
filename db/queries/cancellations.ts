import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "../index";
import { orderCancellations, orders } from "../schema";

export type CancellationRow = typeof orderCancellations.$inferSelect;
export type NewCancellation = typeof orderCancellations.$inferInsert;

/** The order's cancellation, only if the order is this user's. */
export function getCancellationForUser({
  orderId,
  userId,
}: {
  orderId: string;
  userId: string;
}): CancellationRow | null {
  return (
    getDb()
      .select()
      .from(orderCancellations)
      .where(and(eq(orderCancellations.orderId, orderId), eq(orderCancellations.userId, userId)))
      .get() ?? null
  );
}

export function getCancellationByOrderId({ orderId }: { orderId: string }): CancellationRow | null {
  return (
    getDb()
      .select()
      .from(orderCancellations)
      .where(eq(orderCancellations.orderId, orderId))
      .get() ?? null
  );
}

export function getCancellationByOperationId({
  operationId,
}: {
  operationId: string;
}): CancellationRow | null {
  return (
    getDb()
      .select()
      .from(orderCancellations)
      .where(eq(orderCancellations.operationId, operationId))
      .get() ?? null
  );
}

/**
 * Inserts a cancellation unless the order already has one (UNIQUE order_id decides, so a race can
 * never make a second row). Returns the new row, or null when the order already had one.
 */
export function insertCancellationIfAbsent(row: NewCancellation): CancellationRow | null {
  return (
    getDb()
      .insert(orderCancellations)
      .values(row)
      .onConflictDoNothing({ target: orderCancellations.orderId })
      .returning()
      .get() ?? null
  );
}

/**
 * Compare-and-set: the order becomes `cancelled` (version bumped) only if it is still this
 * user's, still `processing` and still at `expectedVersion`. False means it moved on (shipped).
 */
export function cancelOrderIfUnchanged({
  orderId,
  userId,
  expectedVersion,
  now,
}: {
  orderId: string;
  userId: string;
  expectedVersion: number;
  now: Date;
}): boolean {
  const res = getDb()
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
    .run();
  return res.changes === 1;
}
