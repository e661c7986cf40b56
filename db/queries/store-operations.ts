/**
 * store_operations: writes carried out at the connected store (docs/stores.md), one per order and
 * kind under the business key, through the shared write-once helpers.
 */
import "server-only";
import { and, desc, eq, inArray, isNull, notLike, sql } from "drizzle-orm";
import { first, getDb } from "../index";
import { effects, storeOperations } from "../schema";
import { findByOperationId, insertOnce } from "./write-once";

export type StoreOperationRow = typeof storeOperations.$inferSelect;
export type NewStoreOperation = typeof storeOperations.$inferInsert;

export type StoreOperationKind = StoreOperationRow["kind"];

/** One cancellation and one return per order at the store; one address change or exchange per action. */
export const storeOperationKey = (
  backend: string,
  storeOrderRef: string,
  kind: StoreOperationKind,
  actionId?: string,
) =>
  `${backend}:${storeOrderRef}:${kind}${kind === "address" || kind === "exchange" ? `:${actionId}` : ""}`;

/**
 * A released operation's business key starts with this: the store refused it (the order changed
 * there after the plan), so the key is free for a fresh proposal and the row stays as the record.
 */
const RELEASED = "released:";

/** The new operation, or null when its business key already had one. */
export const insertStoreOperationIfAbsent = (row: NewStoreOperation) =>
  insertOnce(storeOperations, storeOperations.businessKey, row);

export async function getStoreOperationByKey({
  businessKey,
}: {
  businessKey: string;
}): Promise<StoreOperationRow | null> {
  return getDb()
    .select()
    .from(storeOperations)
    .where(eq(storeOperations.businessKey, businessKey))
    .then(first);
}

/** The customer's returns at the store with these operation ids (the ids the store shows). */
export async function storeReturnsByOperationIds({
  userId,
  operationIds,
}: {
  userId: string;
  operationIds: string[];
}): Promise<StoreOperationRow[]> {
  if (operationIds.length === 0) return [];
  return getDb()
    .select()
    .from(storeOperations)
    .where(
      and(
        eq(storeOperations.userId, userId),
        eq(storeOperations.kind, "return"),
        inArray(storeOperations.operationId, operationIds),
      ),
    );
}

/** The customer's operation of this kind on the order they name (by its number at the store). */
export async function getStoreOperationForUser({
  backend,
  orderId,
  userId,
  kind,
}: {
  backend: string;
  orderId: string;
  userId: string;
  kind: StoreOperationKind;
}): Promise<StoreOperationRow | null> {
  return getDb()
    .select()
    .from(storeOperations)
    .where(
      and(
        eq(storeOperations.backend, backend),
        eq(storeOperations.orderId, orderId),
        eq(storeOperations.userId, userId),
        eq(storeOperations.kind, kind),
        notLike(storeOperations.businessKey, `${RELEASED}%`),
      ),
    )
    .orderBy(desc(storeOperations.createdAt))
    .limit(1)
    .then(first);
}

/**
 * Frees the business key of the operation whose store write was refused because the order had
 * changed there (nothing was done): the customer's next request for the order makes a fresh
 * proposal instead of finding this one. The row keeps its id, action and audit. True when this
 * call released it.
 */
export async function releaseStoreOperationKey({
  operationId,
}: {
  operationId: string;
}): Promise<boolean> {
  const rows = await getDb()
    .update(storeOperations)
    .set({ businessKey: sql`${sql.raw(`'${RELEASED}'`)} || ${storeOperations.businessKey}` })
    .where(
      and(
        eq(storeOperations.operationId, operationId),
        notLike(storeOperations.businessKey, `${RELEASED}%`),
      ),
    )
    .returning({ id: storeOperations.id });
  return rows.length > 0;
}

export async function getStoreOperationById({
  id,
}: {
  id: string;
}): Promise<StoreOperationRow | null> {
  return getDb().select().from(storeOperations).where(eq(storeOperations.id, id)).then(first);
}

/** A store return's parcel arrived: the first call marks it, a later or racing one gets null. */
export async function markStoreReturnReceivedIfNot({
  id,
  staffId,
  now,
}: {
  id: string;
  staffId: string;
  now: Date;
}): Promise<StoreOperationRow | null> {
  return getDb()
    .update(storeOperations)
    .set({ receivedAt: now, receivedBy: staffId })
    .where(
      and(
        eq(storeOperations.id, id),
        eq(storeOperations.kind, "return"),
        isNull(storeOperations.receivedAt),
      ),
    )
    .returning()
    .then(first);
}

export const getStoreOperationByOperationId = ({ operationId }: { operationId: string }) =>
  findByOperationId(storeOperations, operationId);

/** A store return with its receive-and-refund effect (`store.receive_return`), once received. */
export type StoreReturnWithRefund = StoreOperationRow & {
  refundEffectId: string | null;
  refundStatus: (typeof effects.$inferSelect)["status"] | null;
  /** The store's reference of the refund (Medusa's `ref_…`), once it succeeded. */
  refundProviderRef: string | null;
};

const storeReturnsWithRefund = () =>
  getDb()
    .select({
      op: storeOperations,
      effectId: effects.id,
      status: effects.status,
      providerRef: effects.providerRef,
    })
    .from(storeOperations)
    .leftJoin(
      effects,
      and(
        eq(effects.actionId, storeOperations.operationId),
        eq(effects.kind, "store.receive_return"),
      ),
    );

const flatStore = (r: {
  op: StoreOperationRow;
  effectId: string | null;
  status: StoreReturnWithRefund["refundStatus"];
  providerRef: string | null;
}): StoreReturnWithRefund => ({
  ...r.op,
  refundEffectId: r.effectId,
  refundStatus: r.status,
  refundProviderRef: r.providerRef,
});

export async function getStoreReturnWithRefund({
  id,
}: {
  id: string;
}): Promise<StoreReturnWithRefund | null> {
  const row = await storeReturnsWithRefund()
    .where(and(eq(storeOperations.id, id), eq(storeOperations.kind, "return")))
    .then(first);
  return row ? flatStore(row) : null;
}

export async function getStoreReturnByActionId({
  actionId,
}: {
  actionId: string;
}): Promise<StoreReturnWithRefund | null> {
  const row = await storeReturnsWithRefund()
    .where(and(eq(storeOperations.actionId, actionId), eq(storeOperations.kind, "return")))
    .then(first);
  return row ? flatStore(row) : null;
}

/** Store returns, newest first (the staff returns list shows them beside ours). */
export async function listStoreReturnsWithRefund({
  limit,
}: {
  limit: number;
}): Promise<StoreReturnWithRefund[]> {
  const rows = await storeReturnsWithRefund()
    .where(eq(storeOperations.kind, "return"))
    .orderBy(desc(storeOperations.createdAt), desc(storeOperations.id))
    .limit(limit);
  return rows.map(flatStore);
}
