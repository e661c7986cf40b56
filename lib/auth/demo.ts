import "server-only";
import { existingEmails } from "@/db/queries/users";
import { DEMO_USERS } from "@/db/seed-data";

export type DemoAccount = { email: string; who: string };

/**
 * The demo accounts the sign-in page may offer as one-click buttons: only those that exist in
 * this database. A deployment without the demo seed shows none, and so
 * publishes no password.
 */
export async function offeredDemoAccounts(): Promise<DemoAccount[]> {
  const present = new Set(await existingEmails(DEMO_USERS.map((u) => u.email)));
  return DEMO_USERS.filter((u) => present.has(u.email)).map((u) => ({
    email: u.email,
    who: u.key,
  }));
}
