import "server-only";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { first, getDb } from "../index";
import {
  itemExchanges,
  orderItems,
  orders,
  products,
  productVariants,
  returnRequestLines,
  returnRequests,
} from "../schema";
import { orderOpenTo } from "./guests";

/**
 * One line of an order, with what the policy needs to decide on it: the variant bought (null on
 * lines from before the catalogue, and at a store that gives none), whether it was sold as final
 * sale, and how many of its units were already given back (returned) or exchanged.
 */
export type OrderItem = {
  /** The line's id as the customer and the model name it (the built-in store's row id). */
  lineId: string;
  name: string;
  quantity: number;
  unitPriceMinor: number;
  variant: {
    id: string;
    productId: string;
    options: Record<string, string>;
    position: number;
  } | null;
  finalSale: boolean;
  returnedQuantity: number;
  exchangedQuantity: number;
  /** Each exchange of this line, oldest first: how many units, from which variant to which. */
  exchanges: LineExchange[];
};

/**
 * One exchange of a line as the orders page shows it: "swap" changed the variant before the order
 * shipped; "exchange" sends the new variant after delivery, and the old one comes back.
 */
export type LineExchange = {
  kind: (typeof itemExchanges.$inferSelect)["kind"];
  quantity: number;
  from: Record<string, string>;
  to: Record<string, string>;
};
/**
 * An order as every store answers it. A guest order's e-mail is not part of it: the verification
 * (db/queries/guests.ts) compares it in SQL, and no tool or page shows it.
 */
export type OrderWithItems = Omit<typeof orders.$inferSelect, "email"> & {
  items: OrderItem[];
  returnRequest: typeof returnRequests.$inferSelect | null;
};

async function withItems(rows: (typeof orders.$inferSelect)[]): Promise<OrderWithItems[]> {
  const db = getDb();
  const ids = rows.map((r) => r.id);
  const items = await db
    .select({
      id: orderItems.id,
      orderId: orderItems.orderId,
      name: orderItems.name,
      quantity: orderItems.quantity,
      unitPriceMinor: orderItems.unitPriceMinor,
      variantId: productVariants.id,
      productId: productVariants.productId,
      options: productVariants.options,
      position: productVariants.position,
      finalSale: products.finalSale,
    })
    .from(orderItems)
    .leftJoin(productVariants, eq(productVariants.id, orderItems.variantId))
    .leftJoin(products, eq(products.id, productVariants.productId))
    .where(inArray(orderItems.orderId, ids))
    .orderBy(asc(orderItems.id));
  const returns = await db
    .select()
    .from(returnRequests)
    .where(inArray(returnRequests.orderId, ids));
  const itemIds = items.map((i) => i.id);
  const returned = itemIds.length
    ? await db
        .select({ id: returnRequestLines.orderItemId, quantity: returnRequestLines.quantity })
        .from(returnRequestLines)
        .where(inArray(returnRequestLines.orderItemId, itemIds))
    : [];
  const exchanged = itemIds.length
    ? await db
        .select({
          id: itemExchanges.orderItemId,
          kind: itemExchanges.kind,
          quantity: itemExchanges.quantity,
          fromVariantId: itemExchanges.fromVariantId,
          toVariantId: itemExchanges.toVariantId,
        })
        .from(itemExchanges)
        .where(inArray(itemExchanges.orderItemId, itemIds))
        .orderBy(asc(itemExchanges.createdAt), asc(itemExchanges.id))
    : [];
  // Both variants of each exchange, for the page's "size 42 → 43": one query, not one per row.
  const variantIds = [...new Set(exchanged.flatMap((x) => [x.fromVariantId, x.toVariantId]))];
  const variants = variantIds.length
    ? await db
        .select({ id: productVariants.id, options: productVariants.options })
        .from(productVariants)
        .where(inArray(productVariants.id, variantIds))
    : [];
  const optionsOf = (id: string) => variants.find((v) => v.id === id)?.options ?? {};
  const sum = (list: { id: number; quantity: number }[], id: number) =>
    list.filter((r) => r.id === id).reduce((n, r) => n + r.quantity, 0);
  return rows.map((o) => ({
    ...o,
    items: items
      .filter((i) => i.orderId === o.id)
      .map((i) => ({
        lineId: String(i.id),
        name: i.name,
        quantity: i.quantity,
        unitPriceMinor: i.unitPriceMinor,
        variant:
          i.variantId && i.productId && i.options && i.position !== null
            ? { id: i.variantId, productId: i.productId, options: i.options, position: i.position }
            : null,
        finalSale: i.finalSale ?? false,
        returnedQuantity: sum(returned, i.id),
        exchangedQuantity: sum(exchanged, i.id),
        exchanges: exchanged
          .filter((x) => x.id === i.id)
          .map((x) => ({
            kind: x.kind,
            quantity: x.quantity,
            from: optionsOf(x.fromVariantId),
            to: optionsOf(x.toVariantId),
          })),
      })),
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

/**
 * One order, only if it is open to this user (its own, or a guest order it verified whose e-mail
 * is still the verified one: orderOpenTo): anyone else's order reads as missing.
 */
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
    .where(and(eq(orders.id, id), orderOpenTo(userId)))
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
