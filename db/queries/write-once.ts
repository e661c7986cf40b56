/**
 * What every write tool's effect table needs, written once and given the table: insert the
 * effect unless its business key already has a row, find the row an action wrote by its
 * operation id, list an order's rows, and the compare-and-set on the order the effect is for.
 * The tables themselves stay in db/schema (and the migrations); a tool's own file in db/queries
 * names its table and its business key and calls these.
 */
import "server-only";
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { first, getDb } from "../index";
import { orders } from "../schema";
import { orderOpenTo } from "./guests";

/** An effect table: one row per effect, recorded under the action's id as its operation id. */
export type EffectTable = SQLiteTable & { operationId: SQLiteColumn; orderId: SQLiteColumn };
type Row<T extends EffectTable> = T["$inferSelect"];

/**
 * Inserts the row unless `key` (a UNIQUE column: the order, or the operation) already holds one:
 * the unique index decides, so a race can never make a second row. The new row, or null when the
 * key was taken.
 */
export async function insertOnce<T extends EffectTable>(
  table: T,
  key: SQLiteColumn,
  row: T["$inferInsert"],
): Promise<Row<T> | null> {
  const rows = await getDb()
    .insert(table as SQLiteTable)
    .values(row as never)
    .onConflictDoNothing({ target: key })
    .returning();
  return first(rows as Row<T>[]);
}

/** The row an action wrote (crash recovery, and the winner of a duplicate insert). */
export async function findByOperationId<T extends EffectTable>(
  table: T,
  operationId: string,
): Promise<Row<T> | null> {
  const rows = await getDb()
    .select()
    .from(table as SQLiteTable)
    .where(eq(table.operationId, operationId));
  return first(rows as Row<T>[]);
}

/** An order's rows in the table, optionally only the user's, newest first when `newest` is given. */
export async function findForOrder<T extends EffectTable>(
  table: T,
  where: { orderId: string; userId?: string; newest?: SQL[] },
): Promise<Row<T>[]> {
  const userId = (table as unknown as { userId?: SQLiteColumn }).userId;
  const query = getDb()
    .select()
    .from(table as SQLiteTable)
    .where(
      and(
        eq(table.orderId, where.orderId),
        where.userId !== undefined && userId ? eq(userId, where.userId) : undefined,
      ),
    );
  const rows = where.newest ? await query.orderBy(...where.newest) : await query;
  return rows as Row<T>[];
}

/**
 * Compare-and-set on the order: `set` is applied and the version bumped only if the order is
 * still this user's, still at `expectedVersion` and (when given) still in `status`. False means
 * it moved on since the plan.
 */
export async function compareAndSetOrder({
  orderId,
  userId,
  expectedVersion,
  status,
  set = {},
  now,
}: {
  orderId: string;
  userId: string;
  expectedVersion: number;
  status?: (typeof orders.$inferSelect)["status"];
  set?: Partial<typeof orders.$inferInsert>;
  now: Date;
}): Promise<boolean> {
  const res = await getDb()
    .update(orders)
    .set({ ...set, version: sql`${orders.version} + 1`, updatedAt: now })
    .where(
      and(
        eq(orders.id, orderId),
        orderOpenTo(userId),
        eq(orders.version, expectedVersion),
        status ? eq(orders.status, status) : undefined,
      ),
    )
    .returning({ id: orders.id });
  return res.length === 1;
}
