/**
 * The built-in payment provider's table (`ledger`, lib/effects/providers/ledger.ts): refunds as
 * rows, one per idempotency key, as a provider that honours keys would keep them.
 */
import "server-only";
import { asc, eq } from "drizzle-orm";
import { first, getDb } from "../index";
import { refundsLedger } from "../schema";

export type LedgerRefundRow = typeof refundsLedger.$inferSelect;
export type NewLedgerRefund = typeof refundsLedger.$inferInsert;

/** Inserts the refund unless its key has one; the key's row either way (UNIQUE decides). */
export async function insertLedgerRefundOnce(row: NewLedgerRefund): Promise<LedgerRefundRow> {
  const inserted = await getDb()
    .insert(refundsLedger)
    .values(row)
    .onConflictDoNothing({ target: refundsLedger.idempotencyKey })
    .returning()
    .then(first);
  if (inserted) return inserted;
  const existing = await getDb()
    .select()
    .from(refundsLedger)
    .where(eq(refundsLedger.idempotencyKey, row.idempotencyKey))
    .then(first);
  if (!existing) throw new Error("ledger key conflict without a row");
  return existing;
}

/** The refunds recorded for one operation (an action), oldest first. */
export async function listLedgerRefundsByOperation({
  operationId,
}: {
  operationId: string;
}): Promise<LedgerRefundRow[]> {
  return getDb()
    .select()
    .from(refundsLedger)
    .where(eq(refundsLedger.operationId, operationId))
    .orderBy(asc(refundsLedger.createdAt), asc(refundsLedger.id));
}
