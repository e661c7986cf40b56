/**
 * The order queries every tool reads through: a customer's orders each carry exactly their own
 * items, in the order they were stored, and the effects' bulk insert answers what it stored.
 */
import { asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { insertEffects, insertEffectsIfAbsent } from "@/db/queries/effects";
import { getOrderForUser, listOrdersForUser } from "@/db/queries/orders";
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
  ).map(({ name, quantity, unitPriceMinor }) => ({ name, quantity, unitPriceMinor }));

describe("orders with their items", () => {
  it("each of a customer's orders carries its own items and no other order's", async () => {
    const orders = await listOrdersForUser({ userId: anna });
    // The demo customer has several orders with items, so a mix-up would show.
    expect(orders.filter((o) => o.items.length > 0).length).toBeGreaterThan(1);
    for (const o of orders) expect(o.items).toEqual(await storedItems(o.id));
    const one = orders[0]!;
    expect((await getOrderForUser({ id: one.id, userId: anna }))?.items).toEqual(
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
