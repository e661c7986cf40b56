import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { first, getDb } from "@/db";
import { orders, returnRequests } from "@/db/schema";

export type ReturnRequestRow = typeof returnRequests.$inferSelect;
export type NewReturnRequest = typeof returnRequests.$inferInsert;

export async function getReturnRequestByOrderId({
  orderId,
}: {
  orderId: string;
}): Promise<ReturnRequestRow | null> {
  return getDb()
    .select()
    .from(returnRequests)
    .where(eq(returnRequests.orderId, orderId))
    .then(first);
}

export async function getReturnRequestByOperationId({
  operationId,
}: {
  operationId: string;
}): Promise<ReturnRequestRow | null> {
  return getDb()
    .select()
    .from(returnRequests)
    .where(eq(returnRequests.operationId, operationId))
    .then(first);
}

/**
 * Inserts a return request unless the order already has one (UNIQUE order_id decides, so a race
 * can never make a second row). Returns the new row, or null when the order already had one.
 */
export async function insertReturnRequestIfAbsent(
  row: NewReturnRequest,
): Promise<ReturnRequestRow | null> {
  return getDb()
    .insert(returnRequests)
    .values(row)
    .onConflictDoNothing({ target: returnRequests.orderId })
    .returning()
    .then(first);
}

/**
 * Compare-and-set on the order: bumps `version` only if it is still `expectedVersion`.
 * False means someone changed the order since the plan was made.
 */
export async function bumpOrderVersion({
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
    .set({ version: sql`${orders.version} + 1`, updatedAt: now })
    .where(
      and(eq(orders.id, orderId), eq(orders.userId, userId), eq(orders.version, expectedVersion)),
    )
    .returning({ id: orders.id });
  return res.length === 1;
}
