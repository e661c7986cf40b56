import "server-only";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { first, getDb } from "../index";
import { orderItems, orders, returnRequests } from "../schema";

export type OrderItem = { name: string; quantity: number; unitPriceMinor: number };
export type OrderWithItems = typeof orders.$inferSelect & {
  items: OrderItem[];
  returnRequest: typeof returnRequests.$inferSelect | null;
};

async function withItems(rows: (typeof orders.$inferSelect)[]): Promise<OrderWithItems[]> {
  const db = getDb();
  const ids = rows.map((r) => r.id);
  const items = await db
    .select()
    .from(orderItems)
    .where(inArray(orderItems.orderId, ids))
    .orderBy(asc(orderItems.id));
  const returns = await db
    .select()
    .from(returnRequests)
    .where(inArray(returnRequests.orderId, ids));
  return rows.map((o) => ({
    ...o,
    items: items
      .filter((i) => i.orderId === o.id)
      .map(({ name, quantity, unitPriceMinor }) => ({ name, quantity, unitPriceMinor })),
    returnRequest: returns.find((r) => r.orderId === o.id) ?? null,
  }));
}

/** The customer's own orders, newest first. */
export async function listOrdersForUser({ userId }: { userId: string }): Promise<OrderWithItems[]> {
  const rows = await getDb()
    .select()
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.placedAt));
  return withItems(rows);
}

/** One order, only if it belongs to this user: someone else's order reads as missing. */
export async function getOrderForUser({
  id,
  userId,
}: {
  id: string;
  userId: string;
}): Promise<OrderWithItems | null> {
  const row = await getDb()
    .select()
    .from(orders)
    .where(and(eq(orders.id, id), eq(orders.userId, userId)))
    .then(first);
  return row ? ((await withItems([row]))[0] ?? null) : null;
}

/** An order's status by id, whoever owns it (staff operations). */
export async function getOrderStatusById({ orderId }: { orderId: string }): Promise<{
  id: string;
  status: (typeof orders.$inferSelect)["status"];
  version: number;
} | null> {
  return getDb()
    .select({ id: orders.id, status: orders.status, version: orders.version })
    .from(orders)
    .where(eq(orders.id, orderId))
    .then(first);
}

/**
 * Staff marks a processing order shipped: a conditional update (only from `processing`) that
 * bumps the version, so any proposal planned against the old version goes stale. Returns the
 * updated order, or null when it was not processing.
 */
export async function shipOrderIfProcessing({
  orderId,
  now,
}: {
  orderId: string;
  now: Date;
}): Promise<typeof orders.$inferSelect | null> {
  return getDb()
    .update(orders)
    .set({
      status: "shipped",
      shippedAt: now,
      version: sql`${orders.version} + 1`,
      updatedAt: now,
    })
    .where(and(eq(orders.id, orderId), eq(orders.status, "processing")))
    .returning()
    .then(first);
}

/**
 * An order changed in a way no tool cares about (a corrected delivery date): only its version
 * moves, so every proposal planned against the old version goes stale.
 */
export async function touchOrder({ orderId, now }: { orderId: string; now: Date }): Promise<void> {
  await getDb()
    .update(orders)
    .set({ version: sql`${orders.version} + 1`, updatedAt: now })
    .where(eq(orders.id, orderId));
}
