import "server-only";
import { isLocale, type Locale } from "@/db/constants";
import { AppError } from "../errors";
import { getAuth } from "./auth";

export type Role = "customer" | "staff";
export type CurrentUser = {
  id: string;
  email: string;
  name: string;
  role: Role;
  /** The saved interface language; null until the user picks one. */
  locale: Locale | null;
  /** The store page this session was started from (the embedded chat); null on our own site. */
  embedOrigin: string | null;
  /** A store page's visitor who is not signed in there: the return policy only, no orders. */
  guest: boolean;
};

/**
 * The longest a guest's session lives, from when it started: a visitor has no password and no
 * store behind it, so nothing should keep its account signed in for a week. better-auth extends
 * a session it reads (up to its 7 days), so the bound is checked here, from `createdAt`.
 */
export const GUEST_SESSION_SECONDS = 86_400;

/** The signed-in user for these request headers, or null. */
export async function getCurrentUser(
  headers: Headers,
  now: Date = new Date(),
): Promise<CurrentUser | null> {
  const session = await getAuth().api.getSession({ headers });
  if (!session) return null;
  const u = session.user as typeof session.user & {
    role?: string;
    locale?: string | null;
    guest?: boolean | null;
  };
  if (
    u.guest === true &&
    now.getTime() - new Date(session.session.createdAt).getTime() > GUEST_SESSION_SECONDS * 1000
  )
    return null;
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    role: u.role === "staff" ? "staff" : "customer",
    locale: isLocale(u.locale) ? u.locale : null,
    embedOrigin: (session.session as { embedOrigin?: string | null }).embedOrigin ?? null,
    guest: u.guest === true,
  };
}

export async function requireUser(headers: Headers): Promise<CurrentUser> {
  const user = await getCurrentUser(headers);
  if (!user) throw new AppError("unauthenticated", "Sign in to continue.");
  return user;
}

export async function requireStaff(headers: Headers): Promise<CurrentUser> {
  const user = await requireUser(headers);
  if (user.role !== "staff") throw new AppError("forbidden", "This page is for support staff.");
  return user;
}

/** Chats and decisions are the customer's own; staff read them on the audit page instead. */
export async function requireCustomer(headers: Headers): Promise<CurrentUser> {
  const user = await requireUser(headers);
  if (user.role !== "customer") throw new AppError("forbidden", "Chats are for customers.");
  return user;
}
