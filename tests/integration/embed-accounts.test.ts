/**
 * The accounts the embedded widget makes (db/queries/embed.ts), on both databases: a store
 * customer's account made once on first sight, with the store's verified email; an email another
 * account already has is never taken over; a visitor's guest account is what it says it is.
 */
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { createGuest, findOrCreateStoreCustomer } from "@/db/queries/embed";
import { user } from "@/db/schema";
import { useTestDatabase } from "../helpers/db";

const now = new Date("2026-12-04T12:00:00.000Z");
const rowOf = async (id: string) => (await getDb().select().from(user).where(eq(user.id, id)))[0];

beforeEach(async () => {
  await useTestDatabase();
});

describe("findOrCreateStoreCustomer", () => {
  it("makes the account once, a verified customer linked to the store's id", async () => {
    const made = await findOrCreateStoreCustomer({
      storeCustomerId: "cus_NEW",
      email: "new@shop.example",
      name: "New Customer",
      now,
    });
    expect(made).toMatchObject({
      email: "new@shop.example",
      name: "New Customer",
      role: "customer",
    });
    expect(await rowOf(made!.id)).toMatchObject({
      email: "new@shop.example",
      emailVerified: true,
      role: "customer",
      storeCustomerId: "cus_NEW",
      guest: false,
      createdAt: now,
    });
    // A later token, even with another email and name: the same account, unchanged.
    const again = await findOrCreateStoreCustomer({
      storeCustomerId: "cus_NEW",
      email: "other@shop.example",
      name: "Other",
      now: new Date(now.getTime() + 60_000),
    });
    expect(again).toEqual(made);
    expect(
      await getDb().select().from(user).where(eq(user.storeCustomerId, "cus_NEW")),
    ).toHaveLength(1);
  });

  it("never takes over an email another account has: null, nothing written", async () => {
    const before = (await getDb().select().from(user)).length;
    expect(
      await findOrCreateStoreCustomer({
        storeCustomerId: "cus_THIEF",
        email: "anna@example.com",
        name: "Not Anna",
        now,
      }),
    ).toBeNull();
    expect((await getDb().select().from(user)).length).toBe(before);
  });
});

describe("createGuest", () => {
  it("returns exactly the guest it stored: no store id, an address that receives nothing", async () => {
    const guest = await createGuest({ name: "Visitor", now });
    const row = await rowOf(guest.id);
    expect(guest).toEqual({ id: row!.id, name: "Visitor", email: row!.email, role: "customer" });
    expect(row).toMatchObject({
      email: `visitor-${guest.id}@visitors.invalid`,
      emailVerified: false,
      guest: true,
      storeCustomerId: null,
    });
  });
});
