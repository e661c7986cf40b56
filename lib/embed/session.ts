/**
 * A session for the store's customer inside our iframe (POST/DELETE /api/embed/session).
 *
 * The iframe is a third-party frame on the store's page, where Chromium keeps no ordinary
 * third-party cookie. The session is therefore a CHIPS cookie: better-auth's own session token,
 * signed by better-auth's cookie signer, with `SameSite=None; Secure; Partitioned`. The browser
 * keeps it in a jar of the store's site alone, so every request the embedded chat makes is
 * authenticated exactly as on our own pages (no code of the chat changes), while our own site
 * and every other store see none of it. A bearer in the iframe's memory would have needed every
 * fetch and the chat stream to carry a header, and a reload of the frame to ask the store again.
 */
import "server-only";
import { serializeSignedCookie } from "better-call";
import { createGuest, findOrCreateStoreCustomer, spendTokenId } from "@/db/queries/embed";
import { recordAudit } from "../audit-log/record";
import { getAuth } from "../auth/auth";
import { GUEST_SESSION_SECONDS } from "../auth/session";
import { env } from "../env";
import { AppError, isAppError } from "../errors";
import { addressBucket } from "../http/client-address";
import { rateLimit } from "../http/rate-limit";
import {
  CLOCK_SKEW_SECONDS,
  embedAudience,
  embedSigningConfigured,
  verifyEmbedToken,
} from "./token";

export const EMBED_AUDIT_TOOL = "embed:session";

/** The chat's cookie attributes in a third-party frame (see above). */
const PARTITIONED = { sameSite: "none", secure: true, partitioned: true } as const;

export function embedEnabled(): boolean {
  return env().EMBED_ALLOWED_ORIGINS.length > 0 && embedSigningConfigured();
}

/** A store origin we accept (EMBED_ALLOWED_ORIGINS), exactly as the browser writes it. */
export function isAllowedOrigin(origin: string | null | undefined): origin is string {
  return !!origin && env().EMBED_ALLOWED_ORIGINS.includes(origin);
}

export type EmbedSessionInput = {
  token: string;
  /** The store page's origin as the iframe saw it on the boot message; kept for the audit. */
  origin?: string | undefined;
  /** Where this request arrived (scheme and Host): the audience when none is configured. */
  requestOrigin: string;
  ipAddress: string | null;
  userAgent: string | null;
  now?: Date;
};

export type EmbedSession = {
  user: { id: string; name: string; email: string };
  storeCustomerId: string;
  setCookie: string;
};

/**
 * Verifies the token, spends its `jti`, links or creates the customer's account and starts a
 * session. Every outcome is audited; a refusal throws the AppError whose code says why.
 */
export async function startEmbedSession(input: EmbedSessionInput): Promise<EmbedSession> {
  if (!embedEnabled())
    throw new AppError("embed_disabled", "Embedding is not configured on this server.");
  const now = input.now ?? new Date();
  const origin = isAllowedOrigin(input.origin) ? input.origin : null;
  let sub: string | null = null;
  try {
    const claims = await verifyEmbedToken(input.token, {
      audience: embedAudience(input.requestOrigin),
      now,
    });
    sub = claims.sub;
    const expiresAt = new Date((claims.exp + CLOCK_SKEW_SECONDS) * 1000);
    if (!(await spendTokenId({ jti: claims.jti, expiresAt, now })))
      throw new AppError("token_replayed", "This token was already used: sign a new one.");
    const account = await findOrCreateStoreCustomer({
      storeCustomerId: claims.sub,
      email: claims.email,
      name: claims.name ?? claims.email.split("@")[0]!,
      now,
    });
    if (!account)
      throw new AppError(
        "email_in_use",
        "The token's email belongs to an account that is not linked to this store customer.",
      );
    if (account.role !== "customer")
      throw new AppError("forbidden", "Store tokens start customer sessions only.");
    const setCookie = await createSessionCookie(account.id, { ...input, origin });
    await recordAudit({
      tool: EMBED_AUDIT_TOOL,
      status: "success",
      userId: account.id,
      at: now,
      arguments: { storeCustomerId: claims.sub, origin },
      result: { session: "started", origin },
    });
    return {
      user: { id: account.id, name: account.name, email: account.email },
      storeCustomerId: claims.sub,
      setCookie,
    };
  } catch (err) {
    if (isAppError(err))
      await recordAudit({
        tool: EMBED_AUDIT_TOOL,
        status: "rejected",
        errorCode: err.code,
        at: now,
        arguments: { storeCustomerId: sub, origin },
        result: { code: err.code },
      });
    throw err;
  }
}

/**
 * Visitor sessions a client address (an IPv6 client by its /64) may start in a minute: each is an
 * account, so a script must not mint them in a loop; a person opens the widget a few times at
 * most. All addresses together are capped too (EMBED_GUEST_SESSIONS_PER_MINUTE): each guest has
 * its own message limit, so a botnet minting guests would multiply the model's cost.
 */
export const GUEST_SESSIONS_PER_MINUTE = 10;

export type GuestSessionInput = Omit<EmbedSessionInput, "token" | "requestOrigin"> & {
  locale: "en" | "ru";
};

/**
 * A store page's visitor who is not signed in there (the widget booted without a token): a
 * session of a guest account, which is offered the return policy alone (lib/chat/turn-tools.ts).
 * Audited as `embed:session` with `guest: true`.
 */
export async function startGuestSession(
  input: GuestSessionInput,
): Promise<{ user: { id: string; name: string }; setCookie: string }> {
  if (!embedEnabled())
    throw new AppError("embed_disabled", "Embedding is not configured on this server.");
  const now = input.now ?? new Date();
  const origin = isAllowedOrigin(input.origin) ? input.origin : null;
  await rateLimit(`embed-guest:${addressBucket(input.ipAddress)}`, GUEST_SESSIONS_PER_MINUTE, {
    what: "visitor sessions",
  });
  // After the address's own limit, so one address refused there spends none of everyone's.
  await rateLimit("embed-guest-all", env().EMBED_GUEST_SESSIONS_PER_MINUTE, {
    what: "visitor sessions on this server",
  });
  const guest = await createGuest({ name: input.locale === "ru" ? "Посетитель" : "Visitor", now });
  const setCookie = await createSessionCookie(guest.id, { ...input, origin }, { guest: true });
  await recordAudit({
    tool: EMBED_AUDIT_TOOL,
    status: "success",
    userId: guest.id,
    at: now,
    arguments: { storeCustomerId: null, origin, guest: true },
    result: { session: "started", origin, guest: true },
  });
  return { user: { id: guest.id, name: guest.name }, setCookie };
}

/** better-auth's own session row and its signed token, in a partitioned cookie. */
export async function createSessionCookie(
  userId: string,
  input: Pick<EmbedSessionInput, "ipAddress" | "userAgent"> & { origin: string | null },
  { guest = false, partitioned = true }: { guest?: boolean; partitioned?: boolean } = {},
): Promise<string> {
  const ctx = await getAuth().$context;
  // The store's origin rides on the session, so the chats it starts say where they came from.
  // A guest's session is better-auth's short one (a day, its "don't remember me"); that it is
  // never extended past a day is lib/auth/session.ts's check.
  const session = await ctx.internalAdapter.createSession(userId, guest, {
    ipAddress: input.ipAddress ?? "",
    userAgent: input.userAgent ?? "",
    embedOrigin: input.origin,
  });
  const cookie = ctx.authCookies.sessionToken;
  return serializeSignedCookie(cookie.name, session.token, ctx.secret, {
    ...cookie.attributes,
    maxAge: guest ? GUEST_SESSION_SECONDS : ctx.sessionConfig.expiresIn,
    // Our own site's guest (POST /api/guest/session) is first-party: better-auth's own cookie.
    ...(partitioned ? PARTITIONED : {}),
  });
}

/**
 * Ends the frame's session (the store's sign-out calls ReturnsDesk.shutdown()): the session row
 * is deleted and the partitioned cookie expired in the same jar it lives in.
 */
export async function endEmbedSession(headers: Headers): Promise<string> {
  const auth = getAuth();
  const found = await auth.api.getSession({ headers });
  const ctx = await auth.$context;
  if (found) await ctx.internalAdapter.deleteSession(found.session.token);
  const cookie = ctx.authCookies.sessionToken;
  return serializeSignedCookie(cookie.name, "", ctx.secret, {
    ...cookie.attributes,
    maxAge: 0,
    ...PARTITIONED,
  });
}
