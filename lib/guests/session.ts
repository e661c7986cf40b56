/**
 * "Find an order without an account" on our own sign-in page: the same kind of guest session as
 * the widget's visitor (POST /api/embed/guest), for /chat, in a first-party cookie. The same
 * limits hold: per client address (an IPv6 client by its /64) and for all addresses together,
 * and the session lasts at most a day.
 */
import "server-only";
import { createGuest } from "@/db/queries/embed";
import { recordAudit } from "../audit-log/record";
import { createSessionCookie, GUEST_SESSIONS_PER_MINUTE } from "../embed/session";
import { env } from "../env";
import { addressBucket } from "../http/client-address";
import { rateLimit } from "../http/rate-limit";

export const GUEST_SESSION_AUDIT_TOOL = "guest:session";

export async function startSiteGuestSession(input: {
  locale: "en" | "ru";
  ipAddress: string | null;
  userAgent: string | null;
  now?: Date;
}): Promise<{ user: { id: string; name: string }; setCookie: string }> {
  const now = input.now ?? new Date();
  // One budget with the widget's visitors: the same accounts, the same cost.
  await rateLimit(`embed-guest:${addressBucket(input.ipAddress)}`, GUEST_SESSIONS_PER_MINUTE, {
    what: "visitor sessions",
  });
  await rateLimit("embed-guest-all", env().EMBED_GUEST_SESSIONS_PER_MINUTE, {
    what: "visitor sessions on this server",
  });
  const guest = await createGuest({ name: input.locale === "ru" ? "Посетитель" : "Visitor", now });
  const setCookie = await createSessionCookie(
    guest.id,
    { ipAddress: input.ipAddress, userAgent: input.userAgent, origin: null },
    { guest: true, partitioned: false },
  );
  await recordAudit({
    tool: GUEST_SESSION_AUDIT_TOOL,
    status: "success",
    userId: guest.id,
    at: now,
    arguments: { guest: true },
    result: { session: "started", guest: true },
  });
  return { user: { id: guest.id, name: guest.name }, setCookie };
}
