/**
 * Accounts an operator creates (`npm run users`, scripts/users.ts): sign-up is disabled, so this
 * is how a real deployment gets its staff and customers. Everything goes through better-auth's own
 * context: its password hasher and length rules, its adapter's user and credential-account rows,
 * exactly as its sign-up would write them, so the account signs in like any other.
 */
import "server-only";
import { z } from "zod";
import { getAuth } from "./auth";
import type { Role } from "./session";

export const NewAccount = z.object({
  email: z.email().max(254),
  name: z.string().trim().min(1).max(200),
  role: z.enum(["staff", "customer"]),
});
export type NewAccount = z.infer<typeof NewAccount>;

export class AccountError extends Error {}

/** Creates the user and its password; throws AccountError with a message for the operator. */
export async function createAccount(
  input: NewAccount & { password: string },
): Promise<{ id: string; email: string; role: Role }> {
  const parsed = NewAccount.safeParse(input);
  if (!parsed.success)
    throw new AccountError(
      parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
    );
  const { email, name, role } = parsed.data;
  const ctx = await getAuth().$context;
  const { minPasswordLength, maxPasswordLength } = ctx.password.config;
  if (input.password.length < minPasswordLength)
    throw new AccountError(`The password needs at least ${minPasswordLength} characters.`);
  if (input.password.length > maxPasswordLength)
    throw new AccountError(`The password may have at most ${maxPasswordLength} characters.`);
  if (await ctx.internalAdapter.findUserByEmail(email))
    throw new AccountError(`An account with the email ${email} already exists.`);
  const hash = await ctx.password.hash(input.password);
  // "admin": an operator provisions it, as better-auth's admin plugin calls it.
  const user = await ctx.internalAdapter.createUser(
    { email, name, emailVerified: true, role },
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
  return { id: user.id, email: user.email, role };
}
