/**
 * create_return_request's table (return_requests: one per order, UNIQUE order_id) through the
 * shared write-once helpers. The table is in db/schema and the migrations.
 */
import "server-only";
import { asc, eq } from "drizzle-orm";
import { getDb } from "../index";
import { returnRequestLines, returnRequests } from "../schema";
import { compareAndSetOrder, findByOperationId, findForOrder, insertOnce } from "./write-once";

export type ReturnRequestRow = typeof returnRequests.$inferSelect;
export type NewReturnRequest = typeof returnRequests.$inferInsert;

export async function getReturnRequestByOrderId({
  orderId,
}: {
  orderId: string;
}): Promise<ReturnRequestRow | null> {
  return (await findForOrder(returnRequests, { orderId }))[0] ?? null;
}

export const getReturnRequestByOperationId = ({ operationId }: { operationId: string }) =>
  findByOperationId(returnRequests, operationId);

/** The new request, or null when the order already had one. */
export const insertReturnRequestIfAbsent = (row: NewReturnRequest) =>
  insertOnce(returnRequests, returnRequests.orderId, row);

/** Every return request of an order (the table-driven suites read what a commit wrote). */
export const listReturnRequestsForOrder = (orderId: string) =>
  findForOrder(returnRequests, { orderId });

/** Compare-and-set on the order: only its version moves (a return changes nothing else on it). */
export const bumpOrderVersion = (args: {
  orderId: string;
  userId: string;
  expectedVersion: number;
  now: Date;
}) => compareAndSetOrder(args);

export type ReturnLineRow = typeof returnRequestLines.$inferSelect;

/** The lines a new request gives back (written in the same transaction as the request). */
export async function insertReturnLines(
  requestId: string,
  lines: { orderItemId: number; name: string; quantity: number; unitPriceMinor: number }[],
): Promise<void> {
  if (lines.length === 0) return;
  await getDb()
    .insert(returnRequestLines)
    .values(lines.map((l) => ({ requestId, ...l })));
}

/** A request's lines, in the order's line order. */
export async function listReturnLines({
  requestId,
}: {
  requestId: string;
}): Promise<ReturnLineRow[]> {
  return getDb()
    .select()
    .from(returnRequestLines)
    .where(eq(returnRequestLines.requestId, requestId))
    .orderBy(asc(returnRequestLines.orderItemId));
}
