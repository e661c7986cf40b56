/**
 * A return's parcel arriving (POST /api/staff/returns/{requestId}/receive) and the staff returns
 * list: the return row with its refund effect (`payment.refund` of the return's operation id).
 * The return tool's queries (db/queries/return-requests.ts) create the rows.
 */
import "server-only";
import { and, desc, eq, isNull } from "drizzle-orm";
import { first, getDb } from "../index";
import { effects, orderCancellations, orders, returnRequests, storeOperations } from "../schema";

export type ReturnRow = typeof returnRequests.$inferSelect;

export async function getReturnRequestById({ id }: { id: string }): Promise<ReturnRow | null> {
  return getDb().select().from(returnRequests).where(eq(returnRequests.id, id)).then(first);
}

/**
 * Whose refund an operation is: the return or cancellation that holds this operation id (the
 * confirmed action's id), for the mail that follows the refund's outcome.
 */
export async function refundSubjectOf({
  operationId,
}: {
  operationId: string;
}): Promise<{ userId: string; reference: string } | null> {
  const ret = await getDb()
    .select({ userId: returnRequests.userId, reference: returnRequests.id })
    .from(returnRequests)
    .where(eq(returnRequests.operationId, operationId))
    .then(first);
  if (ret) return ret;
  const cancellation = await getDb()
    .select({ userId: orderCancellations.userId, reference: orderCancellations.id })
    .from(orderCancellations)
    .where(eq(orderCancellations.operationId, operationId))
    .then(first);
  if (cancellation) return cancellation;
  // A return or cancellation at the connected store, whose refund the store made.
  return getDb()
    .select({ userId: storeOperations.userId, reference: storeOperations.id })
    .from(storeOperations)
    .where(eq(storeOperations.operationId, operationId))
    .then(first);
}

/** The order's charge at the payment provider (what a refund goes back to). */
export async function getOrderPaymentRef({ orderId }: { orderId: string }): Promise<string | null> {
  const row = await getDb()
    .select({ paymentRef: orders.paymentRef })
    .from(orders)
    .where(eq(orders.id, orderId))
    .then(first);
  return row?.paymentRef ?? null;
}

/**
 * Marks the parcel received, only if it was not yet: the conditional update decides between
 * racing calls (one row for the first, none for every later one). The updated row, or null.
 */
export async function markReturnReceivedIfNot({
  id,
  staffId,
  now,
}: {
  id: string;
  staffId: string;
  now: Date;
}): Promise<ReturnRow | null> {
  return getDb()
    .update(returnRequests)
    .set({ receivedAt: now, receivedBy: staffId })
    .where(and(eq(returnRequests.id, id), isNull(returnRequests.receivedAt)))
    .returning()
    .then(first);
}

export type ReturnWithRefund = ReturnRow & {
  refundEffectId: string | null;
  refundStatus: (typeof effects.$inferSelect)["status"] | null;
};

const refundJoin = and(
  eq(effects.actionId, returnRequests.operationId),
  eq(effects.kind, "payment.refund"),
);

const withRefund = () =>
  getDb()
    .select({ ret: returnRequests, effectId: effects.id, status: effects.status })
    .from(returnRequests)
    .leftJoin(effects, refundJoin);

type Joined = { ret: ReturnRow; effectId: string | null; status: ReturnWithRefund["refundStatus"] };
const flat = (r: Joined): ReturnWithRefund => ({
  ...r.ret,
  refundEffectId: r.effectId,
  refundStatus: r.status,
});

/** Returns, newest first, each with its refund effect once received (the staff returns list). */
export async function listReturnsWithRefund({
  limit,
}: {
  limit: number;
}): Promise<ReturnWithRefund[]> {
  const rows = await withRefund()
    .orderBy(desc(returnRequests.createdAt), desc(returnRequests.id))
    .limit(limit);
  return rows.map(flat);
}

export async function getReturnWithRefund({
  id,
}: {
  id: string;
}): Promise<ReturnWithRefund | null> {
  const row = await withRefund().where(eq(returnRequests.id, id)).then(first);
  return row ? flat(row) : null;
}

export async function getReturnByActionId({
  actionId,
}: {
  actionId: string;
}): Promise<ReturnWithRefund | null> {
  const row = await withRefund().where(eq(returnRequests.actionId, actionId)).then(first);
  return row ? flat(row) : null;
}
