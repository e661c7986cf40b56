import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "../index";
import { orders, returnRequests } from "../schema";

export type ReturnRequestRow = typeof returnRequests.$inferSelect;
export type NewReturnRequest = typeof returnRequests.$inferInsert;

export function getReturnRequestByOrderId({
  orderId,
}: {
  orderId: string;
}): ReturnRequestRow | null {
  return (
    getDb().select().from(returnRequests).where(eq(returnRequests.orderId, orderId)).get() ?? null
  );
}

export function getReturnRequestByOperationId({
  operationId,
}: {
  operationId: string;
}): ReturnRequestRow | null {
  return (
    getDb()
      .select()
      .from(returnRequests)
      .where(eq(returnRequests.operationId, operationId))
      .get() ?? null
  );
}

/**
 * Inserts a return request unless the order already has one (UNIQUE order_id decides, so a race
 * can never make a second row). Returns the new row, or null when the order already had one.
 */
export function insertReturnRequestIfAbsent(row: NewReturnRequest): ReturnRequestRow | null {
  return (
    getDb()
      .insert(returnRequests)
      .values(row)
      .onConflictDoNothing({ target: returnRequests.orderId })
      .returning()
      .get() ?? null
  );
}

/**
 * Compare-and-set on the order: bumps `version` only if it is still `expectedVersion`.
 * False means someone changed the order since the plan was made.
 */
export function bumpOrderVersion({
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
    .set({ version: sql`${orders.version} + 1`, updatedAt: now })
    .where(
      and(eq(orders.id, orderId), eq(orders.userId, userId), eq(orders.version, expectedVersion)),
    )
    .run();
  return res.changes === 1;
}
