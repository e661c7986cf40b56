/**
 * The store's word for who its customer is: a JWT its own server signs (docs/embed.md). Checked
 * with jose: the signature (HS256 with EMBED_JWT_SECRET, or EMBED_JWT_SECRET_PREVIOUS during a
 * rotation; or RS256/ES256 against EMBED_JWKS_URL, and then only those), `typ` (JWT when
 * present), the audience, the expiry, a lifetime of at most 15 minutes (exp after iat, and iat
 * no older than that), and 60 s of clock skew either way. Whether the `jti`
 * was used before is the session's step (lib/embed/session.ts), after every check here passed.
 */
import "server-only";
import {
  createRemoteJWKSet,
  decodeProtectedHeader,
  errors,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
} from "jose";
import { z } from "zod";
import { normalizeEmail } from "../auth/account-throttle";
import { env } from "../env";
import { AppError, type ErrorCode } from "../errors";
import { freeTextSchema } from "../text/free-text";

/** Far more than any real token (a few hundred bytes); a bigger one is not even decoded. */
export const MAX_TOKEN_BYTES = 4 * 1024;
/** How far ahead `exp` may be: a token is minted for one boot of the widget, not kept. */
export const MAX_TOKEN_LIFETIME_SECONDS = 15 * 60;
export const CLOCK_SKEW_SECONDS = 60;

const HMAC_ALGS = ["HS256"];
const KEY_ALGS = ["RS256", "ES256"];

/**
 * Characters a `sub` may not hold: controls (NUL is more than PostgreSQL's text can hold), bidi
 * marks, embeddings, overrides and isolates, and zero-width characters. A store's customer id is
 * an identifier, not prose: one that displays like another must not be another.
 */
const UNSAFE_ID_CHARACTERS = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

export const EmbedClaims = z.object({
  // Exactly as signed: " demo-anna " is not demo-anna (a trim would let a token the store signed
  // for one id sign in as another).
  sub: z
    .string()
    .min(1)
    .max(255)
    .refine((s) => !UNSAFE_ID_CHARACTERS.test(s), "holds control, bidi or zero-width characters"),
  // One identity however it is written: " Anna@Example.COM" is anna@example.com, and so is its
  // full-width form (the unique index on the normalised email decides, db/schema).
  email: z.preprocess((v) => (typeof v === "string" ? normalizeEmail(v) : v), z.email().max(254)),
  // Shown to staff and written into mails: the same normaliser as every other free text.
  name: freeTextSchema(z.string().min(1).max(200)).optional(),
  exp: z.number().int(),
  iat: z.number().int(),
  jti: z.string().min(1).max(255),
});
export type EmbedClaims = z.infer<typeof EmbedClaims>;

/** Is the store's identity configured at all? Without it POST /api/embed/session is 404. */
export function embedSigningConfigured(): boolean {
  const e = env();
  return Boolean(e.EMBED_JWKS_URL || e.EMBED_JWT_SECRET);
}

/**
 * The `aud` a token must carry: EMBED_AUDIENCE, else our public URL (BETTER_AUTH_URL's origin),
 * else the origin this request reached (`fallbackOrigin`).
 */
export function embedAudience(fallbackOrigin: string): string {
  const e = env();
  if (e.EMBED_AUDIENCE) return e.EMBED_AUDIENCE;
  return e.BETTER_AUTH_URL ? new URL(e.BETTER_AUTH_URL).origin : fallbackOrigin;
}

const g = globalThis as unknown as { __returnsDeskJwks?: { url: string; get: JWTVerifyGetKey } };
/** One key set per URL for the process: jose caches the keys and refetches on an unknown kid. */
function jwks(url: string): JWTVerifyGetKey {
  if (g.__returnsDeskJwks?.url !== url)
    g.__returnsDeskJwks = { url, get: createRemoteJWKSet(new URL(url)) };
  return g.__returnsDeskJwks.get;
}

const refuse = (code: ErrorCode, message: string) => new AppError(code, message);

/** The claims of a token that passed every check, or the reason it did not (an AppError). */
export async function verifyEmbedToken(
  token: string,
  { audience, now = new Date() }: { audience: string; now?: Date },
): Promise<EmbedClaims> {
  if (new TextEncoder().encode(token).byteLength > MAX_TOKEN_BYTES)
    throw refuse("token_too_large", `The token is longer than ${MAX_TOKEN_BYTES} bytes.`);
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw refuse("token_malformed", "The token is not a JWT.");
  }
  // RFC 8725 3.11: a token of another kind (an access token, a logout token) signed with the
  // same key must not pass as ours. Stores that set typ set JWT; leaving it out is allowed.
  if (header.typ !== undefined && String(header.typ).toUpperCase() !== "JWT")
    throw refuse("token_malformed", `The token's typ is ${String(header.typ)}, not JWT.`);
  const alg = header.alg;
  if (!alg || alg.toLowerCase() === "none")
    throw refuse("token_unsigned", "The token is not signed (alg none).");
  const e = env();
  const allowed = e.EMBED_JWKS_URL ? KEY_ALGS : HMAC_ALGS;
  if (!allowed.includes(alg))
    throw refuse(
      "token_algorithm_not_allowed",
      `Tokens must be signed with ${allowed.join(" or ")}; this one is ${alg}.`,
    );
  const options = {
    algorithms: allowed,
    audience,
    clockTolerance: CLOCK_SKEW_SECONDS,
    currentDate: now,
    requiredClaims: ["sub", "exp", "iat", "jti"],
  };
  let payload: JWTPayload;
  try {
    if (e.EMBED_JWKS_URL) {
      ({ payload } = await jwtVerify(token, jwks(e.EMBED_JWKS_URL), options));
    } else {
      payload = await verifyWithSecrets(token, options);
    }
  } catch (err) {
    throw translate(err);
  }
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const claims = EmbedClaims.safeParse(payload);
  if (!claims.success)
    throw refuse(
      "token_claims_invalid",
      `The token's claims are incomplete: ${claims.error.issues.map((i) => i.path.join(".")).join(", ")}.`,
    );
  if (claims.data.iat > nowSeconds + CLOCK_SKEW_SECONDS)
    throw refuse("token_not_yet_valid", "The token was issued in the future (iat).");
  // An old token whose exp was set far from its iat is still a long-lived token: the lifetime is
  // bounded from when it was issued, too.
  if (claims.data.iat < nowSeconds - MAX_TOKEN_LIFETIME_SECONDS - CLOCK_SKEW_SECONDS)
    throw refuse(
      "token_lifetime_too_long",
      `The token was issued more than ${MAX_TOKEN_LIFETIME_SECONDS / 60} minutes ago (iat).`,
    );
  // The lifetime as signed, on the store's one clock, so no skew: 15 minutes pass, 16 do not.
  if (claims.data.exp - claims.data.iat > MAX_TOKEN_LIFETIME_SECONDS)
    throw refuse(
      "token_lifetime_too_long",
      `The token's exp is more than ${MAX_TOKEN_LIFETIME_SECONDS / 60} minutes after its iat.`,
    );
  if (claims.data.exp > nowSeconds + MAX_TOKEN_LIFETIME_SECONDS + CLOCK_SKEW_SECONDS)
    throw refuse(
      "token_lifetime_too_long",
      `The token's exp is more than ${MAX_TOKEN_LIFETIME_SECONDS / 60} minutes ahead.`,
    );
  return claims.data;
}

/** The current secret first; during a rotation the previous one still verifies. */
async function verifyWithSecrets(
  token: string,
  options: Parameters<typeof jwtVerify>[2],
): Promise<JWTPayload> {
  const e = env();
  const secrets = [e.EMBED_JWT_SECRET, e.EMBED_JWT_SECRET_PREVIOUS].filter((s): s is string =>
    Boolean(s),
  );
  let last: unknown;
  for (const secret of secrets) {
    try {
      return (await jwtVerify(token, new TextEncoder().encode(secret), options)).payload;
    } catch (err) {
      // Only a wrong signature may be a token signed with the other secret.
      if (!(err instanceof errors.JWSSignatureVerificationFailed)) throw err;
      last = err;
    }
  }
  throw last ?? new errors.JWSSignatureVerificationFailed();
}

/** A refusal with its own code; anything jose did not raise is thrown on as it was. */
function translate(err: unknown): unknown {
  if (err instanceof errors.JWTExpired) return refuse("token_expired", "The token has expired.");
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === "aud")
      return refuse("token_wrong_audience", "The token is meant for another audience (aud).");
    if (err.reason === "missing")
      return refuse("token_claims_invalid", `The token has no ${err.claim} claim.`);
    if (err.claim === "nbf" || err.claim === "iat")
      return refuse("token_not_yet_valid", "The token is not valid yet.");
    return refuse("token_claims_invalid", `The token's ${err.claim} claim is ${err.reason}.`);
  }
  if (
    err instanceof errors.JWSSignatureVerificationFailed ||
    err instanceof errors.JWKSNoMatchingKey
  )
    return refuse("token_forged", "The token's signature does not verify.");
  if (err instanceof errors.JOSEAlgNotAllowed)
    return refuse("token_algorithm_not_allowed", "The token's algorithm is not accepted.");
  if (
    err instanceof errors.JWKSTimeout ||
    err instanceof errors.JWKSInvalid ||
    (err instanceof TypeError && /fetch/i.test(err.message))
  )
    return new AppError("jwks_unavailable", "The store's signing keys could not be fetched.");
  if (err instanceof errors.JOSEError)
    return refuse("token_malformed", "The token is not a valid JWT.");
  return err;
}
