/**
 * cancel_order's table (order_cancellations: one per order, UNIQUE order_id) through the shared
 * write-once helpers. The table is in db/schema and the migrations.
 */
import "server-only";
import { orderCancellations } from "../schema";
import { compareAndSetOrder, findByOperationId, findForOrder, insertOnce } from "./write-once";

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
  return (await findForOrder(orderCancellations, { orderId, userId }))[0] ?? null;
}

export async function getCancellationByOrderId({
  orderId,
}: {
  orderId: string;
}): Promise<CancellationRow | null> {
  return (await findForOrder(orderCancellations, { orderId }))[0] ?? null;
}

export const getCancellationByOperationId = ({ operationId }: { operationId: string }) =>
  findByOperationId(orderCancellations, operationId);

/** The new cancellation, or null when the order already had one. */
export const insertCancellationIfAbsent = (row: NewCancellation) =>
  insertOnce(orderCancellations, orderCancellations.orderId, row);

/** Every cancellation of an order (the table-driven suites read what a commit wrote). */
export const listCancellationsForOrder = (orderId: string) =>
  findForOrder(orderCancellations, { orderId });

/**
 * Compare-and-set: the order becomes `cancelled` (version bumped) only if it is still this
 * user's, still `processing` and still at `expectedVersion`. False means it moved on (shipped).
 */
export const cancelOrderIfUnchanged = (args: {
  orderId: string;
  userId: string;
  expectedVersion: number;
  now: Date;
}) => compareAndSetOrder({ ...args, status: "processing", set: { status: "cancelled" } });
