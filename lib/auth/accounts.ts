/**
 * Accounts an operator creates (`npm run users`, scripts/users.ts): sign-up is disabled, so this
 * is how a real deployment gets its staff and customers. Everything goes through better-auth's own
 * context: its password hasher and length rules, its adapter's user and credential-account rows,
 * exactly as its sign-up would write them, so the account signs in like any other.
 */
import "server-only";
import { z } from "zod";
import { findUserByStoreCustomerId } from "@/db/queries/embed";
import { accountByEmail, setStoreCustomerId } from "@/db/queries/users";
import { isUniqueViolation } from "@/db/transaction";
import { normalizeEmail } from "./account-throttle";
import { getAuth } from "./auth";
import type { Role } from "./session";

export const NewAccount = z.object({
  // Stored normalised, the form the unique index compares (db/schema: user_email_normalized_unique).
  email: z.preprocess((v) => (typeof v === "string" ? normalizeEmail(v) : v), z.email().max(254)),
  name: z.string().trim().min(1).max(200),
  role: z.enum(["staff", "customer"]),
});
export type NewAccount = z.infer<typeof NewAccount>;

export class AccountError extends Error {}

/**
 * A store's own id of a customer (Medusa's `cus_…`; another store's may look different): printable,
 * without spaces, so a pasted line with a stray blank or a quote cannot become a link that matches
 * nothing at the store.
 */
export const StoreCustomerId = z
  .string()
  .trim()
  .min(1, "the store customer id is empty")
  .max(200, "the store customer id is longer than 200 characters")
  .regex(/^[\x21-\x7e]+$/, "the store customer id may only have printable characters, no spaces");

function parseStoreCustomerId(value: string): string {
  const parsed = StoreCustomerId.safeParse(value);
  if (!parsed.success) throw new AccountError(`Refused: ${parsed.error.issues[0]!.message}.`);
  return parsed.data;
}

/** Refuses a store customer already linked to another account (one account per store customer). */
async function assertStoreCustomerFree(storeCustomerId: string, email: string): Promise<void> {
  const owner = await findUserByStoreCustomerId(storeCustomerId);
  if (owner && owner.email !== email)
    throw new AccountError(
      `Store customer ${storeCustomerId} is already linked to ${owner.email}; unlink that account first.`,
    );
}

/**
 * Links an existing customer account to its store customer (docs/stores.md). Relinking an account
 * that is linked to another store customer moves its orders, so it takes `replace`. Returns the
 * previous link (the same id: nothing changed).
 */
export async function linkStoreCustomer(input: {
  email: string;
  storeCustomerId: string;
  replace?: boolean;
}): Promise<{ email: string; previous: string | null }> {
  const email = normalizeEmail(input.email);
  const storeCustomerId = parseStoreCustomerId(input.storeCustomerId);
  const account = await accountByEmail({ email });
  if (!account) throw new AccountError(`No account with the email ${email}.`);
  if (account.role !== "customer")
    throw new AccountError(
      `${email} is a ${account.role} account; only a customer has orders at the store.`,
    );
  if (account.storeCustomerId === storeCustomerId) return { email, previous: storeCustomerId };
  if (account.storeCustomerId && !input.replace)
    throw new AccountError(
      `${email} is already linked to store customer ${account.storeCustomerId}; add --replace to link it to ${storeCustomerId} instead.`,
    );
  await assertStoreCustomerFree(storeCustomerId, email);
  try {
    await setStoreCustomerId({ email, storeCustomerId });
  } catch (err) {
    // Another link of the same store customer got in between the check and the write.
    if (isUniqueViolation(err))
      throw new AccountError(
        `Store customer ${storeCustomerId} is already linked to another account.`,
      );
    throw err;
  }
  return { email, previous: account.storeCustomerId };
}

/** Removes an account's store link; returns the store customer it was linked to (null: none). */
export async function unlinkStoreCustomer(input: { email: string }): Promise<string | null> {
  const email = normalizeEmail(input.email);
  const account = await accountByEmail({ email });
  if (!account) throw new AccountError(`No account with the email ${email}.`);
  if (account.storeCustomerId) await setStoreCustomerId({ email, storeCustomerId: null });
  return account.storeCustomerId;
}

/** Creates the user and its password; throws AccountError with a message for the operator. */
export async function createAccount(
  input: NewAccount & { password: string; storeCustomerId?: string },
): Promise<{ id: string; email: string; role: Role; storeCustomerId: string | null }> {
  const parsed = NewAccount.safeParse(input);
  if (!parsed.success)
    throw new AccountError(
      parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
    );
  const { email, name, role } = parsed.data;
  const storeCustomerId =
    input.storeCustomerId === undefined ? null : parseStoreCustomerId(input.storeCustomerId);
  // Only a customer has orders at the store (docs/stores.md).
  if (storeCustomerId && role !== "customer")
    throw new AccountError("Only a customer account can be linked to a store customer.");
  const ctx = await getAuth().$context;
  const { minPasswordLength, maxPasswordLength } = ctx.password.config;
  if (input.password.length < minPasswordLength)
    throw new AccountError(`The password needs at least ${minPasswordLength} characters.`);
  if (input.password.length > maxPasswordLength)
    throw new AccountError(`The password may have at most ${maxPasswordLength} characters.`);
  if (await ctx.internalAdapter.findUserByEmail(email))
    throw new AccountError(`An account with the email ${email} already exists.`);
  // Checked before anything is written, so a refused link leaves no unlinked account behind.
  if (storeCustomerId) await assertStoreCustomerFree(storeCustomerId, email);
  const hash = await ctx.password.hash(input.password);
  // "admin": an operator provisions it, as better-auth's admin plugin calls it.
  const user = await ctx.internalAdapter.createUser(
    { email, name, emailVerified: true, role },
    // Stryker disable next-line ObjectLiteral,StringLiteral: better-auth reads this source only for options.user.validateUserInfo, which this configuration does not set.
    { method: "admin" },
  );
  try {
    await ctx.internalAdapter.linkAccount({
      userId: user.id,
      providerId: "credential",
      accountId: user.id,
      password: hash,
    });
  } catch (err) {
    // No user without a password left behind.
    await ctx.internalAdapter.deleteUser(user.id);
    throw err;
  }
  if (storeCustomerId) {
    try {
      await setStoreCustomerId({ email: user.email, storeCustomerId });
    } catch (err) {
      await ctx.internalAdapter.deleteUser(user.id);
      if (isUniqueViolation(err))
        throw new AccountError(
          `Store customer ${storeCustomerId} is already linked to another account.`,
        );
      throw err;
    }
  }
  return { id: user.id, email: user.email, role, storeCustomerId };
}
