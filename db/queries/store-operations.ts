/**
 * store_operations: writes carried out at the connected store (docs/stores.md), one per order and
 * kind under the business key, through the shared write-once helpers.
 */
import "server-only";
import { and, eq } from "drizzle-orm";
import { first, getDb } from "../index";
import { storeOperations } from "../schema";
import { findByOperationId, insertOnce } from "./write-once";

export type StoreOperationRow = typeof storeOperations.$inferSelect;
export type NewStoreOperation = typeof storeOperations.$inferInsert;

export const storeOperationKey = (backend: string, storeOrderRef: string, kind: "cancel") =>
  `${backend}:${storeOrderRef}:${kind}`;

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
  kind: "cancel";
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
      ),
    )
    .then(first);
}

export const getStoreOperationByOperationId = ({ operationId }: { operationId: string }) =>
  findByOperationId(storeOperations, operationId);
