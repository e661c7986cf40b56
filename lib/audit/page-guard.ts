/**
 * Every staff page calls this first (pages, not a layout: a layout is not re-run on every
 * navigation, so it cannot be the only guard). Anonymous visitors go to sign in; customers are
 * sent home: the audit shows other customers' data, so they must not see even its shell.
 */
import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { type CurrentUser, getCurrentUser } from "@/lib/auth/session";

export async function requireStaffPage(): Promise<CurrentUser> {
  const user = await getCurrentUser(await headers());
  if (!user) redirect("/sign-in");
  if (user.role !== "staff") redirect("/");
  return user;
}
