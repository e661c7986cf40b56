import "server-only";
import { eq, inArray } from "drizzle-orm";
import type { Locale } from "../constants";
import { getDb } from "../index";
import { user } from "../schema";
import { latestVerifiedEmail } from "./guests";

/** Saves the interface language the user picked; it follows them to every browser. */
export async function setUserLocale({
  userId,
  locale,
}: {
  userId: string;
  locale: Locale;
}): Promise<void> {
  await getDb().update(user).set({ locale, updatedAt: new Date() }).where(eq(user.id, userId));
}

/** Which of these emails have an account (the sign-in page offers only demo accounts that exist). */
export async function existingEmails(emails: string[]): Promise<string[]> {
  if (emails.length === 0) return [];
  const rows = await getDb()
    .select({ email: user.email })
    .from(user)
    .where(inArray(user.email, emails));
  return rows.map((r) => r.email);
}

/** Where a customer's email goes and the language the account chose (null: never chose). */
export async function getUserContact({
  userId,
}: {
  userId: string;
}): Promise<{ email: string; locale: Locale | null } | null> {
  const rows = await getDb()
    .select({ email: user.email, locale: user.locale, guest: user.guest })
    .from(user)
    .where(eq(user.id, userId))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  if (!row.guest) return { email: row.email, locale: row.locale };
  // A guest's own address receives nothing (`.invalid`): its mails go to the mailbox it proved.
  const email = await latestVerifiedEmail({ userId });
  return email ? { email, locale: row.locale } : null;
}

/** Names and emails by id, for staff lists (the approvals queue names each customer). */
export async function usersByIds(
  ids: string[],
): Promise<Map<string, { name: string; email: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await getDb()
    .select({ id: user.id, name: user.name, email: user.email })
    .from(user)
    .where(inArray(user.id, ids));
  return new Map(rows.map((r) => [r.id, { name: r.name, email: r.email }]));
}

/** The store customer an account is linked to (null: none), for the store backend's reads. */
export async function getStoreCustomerId({ userId }: { userId: string }): Promise<string | null> {
  const rows = await getDb()
    .select({ storeCustomerId: user.storeCustomerId })
    .from(user)
    .where(eq(user.id, userId))
    .limit(1);
  return rows[0]?.storeCustomerId ?? null;
}

/** An account by its (lower-case) email, with its role and store link; null if there is none. */
export async function accountByEmail({ email }: { email: string }): Promise<{
  id: string;
  email: string;
  role: string;
  storeCustomerId: string | null;
} | null> {
  const rows = await getDb()
    .select({
      id: user.id,
      email: user.email,
      role: user.role,
      storeCustomerId: user.storeCustomerId,
    })
    .from(user)
    .where(eq(user.email, email))
    .limit(1);
  return rows[0] ?? null;
}

/** Links an account to its store customer (the demo store's seed, an operator's import). */
export async function setStoreCustomerId({
  email,
  storeCustomerId,
}: {
  email: string;
  storeCustomerId: string | null;
}): Promise<boolean> {
  const rows = await getDb()
    .update(user)
    .set({ storeCustomerId, updatedAt: new Date() })
    .where(eq(user.email, email))
    .returning({ id: user.id });
  return rows.length > 0;
}
