import "server-only";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { first, getDb } from "../index";
import { effects, orders, returnRequests } from "../schema";

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

export async function getReturnRequestById({
  id,
}: {
  id: string;
}): Promise<ReturnRequestRow | null> {
  return getDb().select().from(returnRequests).where(eq(returnRequests.id, id)).then(first);
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
}): Promise<ReturnRequestRow | null> {
  return getDb()
    .update(returnRequests)
    .set({ receivedAt: now, receivedBy: staffId })
    .where(and(eq(returnRequests.id, id), isNull(returnRequests.receivedAt)))
    .returning()
    .then(first);
}

export type ReturnWithRefund = ReturnRequestRow & {
  refundEffectId: string | null;
  refundStatus: (typeof effects.$inferSelect)["status"] | null;
};

const refundJoin = and(
  eq(effects.actionId, returnRequests.operationId),
  eq(effects.kind, "payment.refund"),
);

/** Returns, newest first, each with its refund effect once received (the staff returns list). */
export async function listReturnsWithRefund({
  limit,
}: {
  limit: number;
}): Promise<ReturnWithRefund[]> {
  const rows = await getDb()
    .select({ ret: returnRequests, effectId: effects.id, status: effects.status })
    .from(returnRequests)
    .leftJoin(effects, refundJoin)
    .orderBy(desc(returnRequests.createdAt), desc(returnRequests.id))
    .limit(limit);
  return rows.map((r) => ({ ...r.ret, refundEffectId: r.effectId, refundStatus: r.status }));
}

export async function getReturnWithRefund({
  id,
}: {
  id: string;
}): Promise<ReturnWithRefund | null> {
  const row = await getDb()
    .select({ ret: returnRequests, effectId: effects.id, status: effects.status })
    .from(returnRequests)
    .leftJoin(effects, refundJoin)
    .where(eq(returnRequests.id, id))
    .then(first);
  return row ? { ...row.ret, refundEffectId: row.effectId, refundStatus: row.status } : null;
}

export async function getReturnByActionId({
  actionId,
}: {
  actionId: string;
}): Promise<ReturnWithRefund | null> {
  const row = await getDb()
    .select({ ret: returnRequests, effectId: effects.id, status: effects.status })
    .from(returnRequests)
    .leftJoin(effects, refundJoin)
    .where(eq(returnRequests.actionId, actionId))
    .then(first);
  return row ? { ...row.ret, refundEffectId: row.effectId, refundStatus: row.status } : null;
}
