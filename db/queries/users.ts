import "server-only";
import { eq } from "drizzle-orm";
import type { Locale } from "../constants";
import { getDb } from "../index";
import { user } from "../schema";

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
