/**
 * The order queries every tool reads through: a customer's orders each carry exactly their own
 * items, in the order they were stored, and the effects' bulk insert answers what it stored.
 */
import { asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { insertEffects, insertEffectsIfAbsent } from "@/db/queries/effects";
import { getOrderForUser, listOrdersForUser, type OrderItem } from "@/db/queries/orders";
import { orderItems, user } from "@/db/schema";
import { useTestDatabase } from "../helpers/db";

let anna: string;
beforeAll(async () => {
  await useTestDatabase();
  const [row] = await getDb().select().from(user).where(eq(user.email, "anna@example.com"));
  anna = row!.id;
});

const storedItems = async (orderId: string) =>
  (
    await getDb()
      .select()
      .from(orderItems)
      .where(eq(orderItems.orderId, orderId))
      .orderBy(asc(orderItems.id))
  ).map(({ id, name, quantity, unitPriceMinor, variantId }) => ({
    lineId: String(id),
    name,
    quantity,
    unitPriceMinor,
    variantId,
  }));
const lines = (items: OrderItem[]) =>
  items.map(({ lineId, name, quantity, unitPriceMinor, variant }) => ({
    lineId,
    name,
    quantity,
    unitPriceMinor,
    variantId: variant?.id ?? null,
  }));

describe("orders with their items", () => {
  it("each of a customer's orders carries its own items and no other order's", async () => {
    const orders = await listOrdersForUser({ userId: anna });
    // The demo customer has several orders with items, so a mix-up would show; some lines point
    // at the catalogue's variants (4702's sizes), others predate it.
    expect(orders.flatMap((o) => o.items).some((i) => i.variant)).toBe(true);
    expect(orders.filter((o) => o.items.length > 0).length).toBeGreaterThan(1);
    for (const o of orders) expect(lines(o.items)).toEqual(await storedItems(o.id));
    const one = orders[0]!;
    expect(lines((await getOrderForUser({ id: one.id, userId: anna }))?.items ?? [])).toEqual(
      await storedItems(one.id),
    );
  });
});

describe("effects' bulk insert", () => {
  it("stores nothing and answers nothing for no rows", async () => {
    expect(await insertEffects([])).toEqual([]);
    expect(await insertEffectsIfAbsent([])).toEqual([]);
  });
});
