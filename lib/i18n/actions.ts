"use server";
import { cookies, headers } from "next/headers";
import { setUserLocale } from "@/db/queries/users";
import { getCurrentUser } from "@/lib/auth/session";
import { isLocale, LOCALE_COOKIE } from "./locales";

const YEAR_SECONDS = 60 * 60 * 24 * 365;

/**
 * The header's language switch. The browser keeps the choice in a cookie (so it holds on the
 * sign-in page too) and a signed-in user's account keeps it for every other browser. Server
 * actions are POST-only and Next.js refuses them from another origin.
 */
export async function setLocale(value: unknown): Promise<void> {
  if (!isLocale(value)) return;
  const h = await headers();
  (await cookies()).set(LOCALE_COOKIE, value, {
    path: "/",
    maxAge: YEAR_SECONDS,
    sameSite: "lax",
    httpOnly: true,
    secure: h.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https",
  });
  const user = await getCurrentUser(h);
  if (user) await setUserLocale({ userId: user.id, locale: value });
}
