import "server-only";
import { randomUUID } from "node:crypto";
import { eq, lt } from "drizzle-orm";
import { getDb } from "../index";
import { embedTokenUses, user } from "../schema";

export type StoreCustomer = {
  id: string;
  email: string;
  name: string;
  role: "customer" | "staff";
};

const columns = { id: user.id, email: user.email, name: user.name, role: user.role };

export async function findUserByStoreCustomerId(
  storeCustomerId: string,
): Promise<StoreCustomer | null> {
  const rows = await getDb()
    .select(columns)
    .from(user)
    .where(eq(user.storeCustomerId, storeCustomerId))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * The account linked to this store customer, created on first sight. One statement decides a
 * race: two first tokens for one customer insert once (the unique store_customer_id), and an
 * email that already belongs to another account is never taken over (the unique email): then
 * null, and nothing was written.
 */
export async function findOrCreateStoreCustomer(input: {
  storeCustomerId: string;
  email: string;
  name: string;
  now: Date;
}): Promise<StoreCustomer | null> {
  const existing = await findUserByStoreCustomerId(input.storeCustomerId);
  if (existing) return existing;
  await getDb()
    .insert(user)
    .values({
      id: randomUUID(),
      name: input.name,
      email: input.email,
      // The store has verified it; and it is where the confirmation mails go.
      emailVerified: true,
      role: "customer",
      storeCustomerId: input.storeCustomerId,
      createdAt: input.now,
      updatedAt: input.now,
    })
    .onConflictDoNothing();
  return findUserByStoreCustomerId(input.storeCustomerId);
}

/**
 * Spends a token id: true the first time, false for every later use, on every instance (the
 * primary key decides). Expired ids are swept on the way: their tokens are refused by `exp`.
 */
export async function spendTokenId(input: {
  jti: string;
  expiresAt: Date;
  now: Date;
}): Promise<boolean> {
  const db = getDb();
  await db.delete(embedTokenUses).where(lt(embedTokenUses.expiresAt, input.now));
  const rows = await db
    .insert(embedTokenUses)
    .values({ jti: input.jti, expiresAt: input.expiresAt })
    .onConflictDoNothing()
    .returning({ jti: embedTokenUses.jti });
  return rows.length === 1;
}

/**
 * A store page's visitor who is not signed in there: an account of its own, so that the chat
 * works as every other (its rows belong to someone), but with no store id, no password and an
 * address that can receive nothing (`.invalid` is reserved for that), marked `guest`.
 */
export async function createGuest(input: { name: string; now: Date }): Promise<StoreCustomer> {
  const id = randomUUID();
  await getDb()
    .insert(user)
    .values({
      id,
      name: input.name,
      email: `visitor-${id}@visitors.invalid`,
      emailVerified: false,
      role: "customer",
      guest: true,
      createdAt: input.now,
      updatedAt: input.now,
    });
  return { id, name: input.name, email: `visitor-${id}@visitors.invalid`, role: "customer" };
}
