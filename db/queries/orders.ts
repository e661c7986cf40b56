import "server-only";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { getDb } from "../index";
import { orderItems, orders, returnRequests } from "../schema";

export type OrderItem = { name: string; quantity: number; unitPriceMinor: number };
export type OrderWithItems = typeof orders.$inferSelect & {
  items: OrderItem[];
  returnRequest: typeof returnRequests.$inferSelect | null;
};

function withItems(rows: (typeof orders.$inferSelect)[]): OrderWithItems[] {
  if (rows.length === 0) return [];
  const db = getDb();
  const ids = rows.map((r) => r.id);
  const items = db
    .select()
    .from(orderItems)
    .where(inArray(orderItems.orderId, ids))
    .orderBy(asc(orderItems.id))
    .all();
  const returns = db
    .select()
    .from(returnRequests)
    .where(inArray(returnRequests.orderId, ids))
    .all();
  return rows.map((o) => ({
    ...o,
    items: items
      .filter((i) => i.orderId === o.id)
      .map(({ name, quantity, unitPriceMinor }) => ({ name, quantity, unitPriceMinor })),
    returnRequest: returns.find((r) => r.orderId === o.id) ?? null,
  }));
}

/** The customer's own orders, newest first. */
export function listOrdersForUser({ userId }: { userId: string }): OrderWithItems[] {
  const rows = getDb()
    .select()
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.placedAt))
    .all();
  return withItems(rows);
}

/** One order, only if it belongs to this user: someone else's order reads as missing. */
export function getOrderForUser({
  id,
  userId,
}: {
  id: string;
  userId: string;
}): OrderWithItems | null {
  const row = getDb()
    .select()
    .from(orders)
    .where(and(eq(orders.id, id), eq(orders.userId, userId)))
    .get();
  return row ? (withItems([row])[0] ?? null) : null;
}

/** An order's status by id, whoever owns it (staff operations). */
export function getOrderStatusById({
  orderId,
}: {
  orderId: string;
}): { id: string; status: (typeof orders.$inferSelect)["status"]; version: number } | null {
  return (
    getDb()
      .select({ id: orders.id, status: orders.status, version: orders.version })
      .from(orders)
      .where(eq(orders.id, orderId))
      .get() ?? null
  );
}

/**
 * Staff marks a processing order shipped: a conditional update (only from `processing`) that
 * bumps the version, so any proposal planned against the old version goes stale. Returns the
 * updated order, or null when it was not processing.
 */
export function shipOrderIfProcessing({
  orderId,
  now,
}: {
  orderId: string;
  now: Date;
}): typeof orders.$inferSelect | null {
  return (
    getDb()
      .update(orders)
      .set({
        status: "shipped",
        shippedAt: now,
        version: sql`${orders.version} + 1`,
        updatedAt: now,
      })
      .where(and(eq(orders.id, orderId), eq(orders.status, "processing")))
      .returning()
      .get() ?? null
  );
}
