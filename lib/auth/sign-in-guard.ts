/**
 * What stands in front of better-auth's handler (app/api/auth/[...all]):
 * - the client address it rate-limits by is ours (lib/http/client-address.ts), never a header the
 *   client wrote;
 * - every POST body is read here first, at most 8 KiB (413 `payload_too_large` beyond, before
 *   anything is parsed or stored), and better-auth gets exactly those bytes;
 * - a password sign-in must be JSON (415 otherwise: better-auth also takes a form, which the
 *   per-account limiter used to miss entirely), its email at most 254 characters (400), and it
 *   is counted by the per-account limiter (lib/auth/account-throttle.ts) before any password is
 *   hashed. The email counted is the one better-auth reads: the same bytes, parsed the same way
 *   (JSON.parse, the last of duplicate keys).
 */
import "server-only";
import { toNextJsHandler } from "better-auth/next-js";
import { AppError } from "../errors";
import { readBodyBytes } from "../http/body";
import { clientAddress } from "../http/client-address";
import { beginSignInAttempt, type SignInAttempt, settleSignInAttempt } from "./account-throttle";
import { CLIENT_ADDRESS_HEADER, getAuth } from "./auth";

const SIGN_IN_PATH = /\/api\/auth\/sign-in\/email\/?$/;
/** Room for any real auth request (an email, a password, a few flags); nothing more is read. */
export const AUTH_MAX_BODY_BYTES = 8 * 1024;
const JSON_TYPE = /^application\/json\s*(;|$)/i;

/** RFC 5321's longest address; a longer one is refused before it is counted or stored. */
export const MAX_EMAIL_LENGTH = 254;

/**
 * The sign-in body's email: throws the contract's 415 (not JSON) or 400 (an email over 254
 * characters). Null when the body has no string email: better-auth refuses that body itself
 * (400) without checking any password, so there is no account to count.
 */
function signInEmail(type: string | null, bytes: Uint8Array): string | null {
  if (!type || !JSON_TYPE.test(type))
    throw new AppError("unsupported_media_type", "Send the sign-in as application/json.");
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
    // Stryker disable next-line BlockStatement: without the return, value stays undefined and the two lines below return null all the same.
  } catch {
    return null;
  }
  const email = (value as { email?: unknown } | null)?.email;
  if (typeof email !== "string") return null;
  if (email.length > MAX_EMAIL_LENGTH)
    throw new AppError("invalid_request", `email: at most ${MAX_EMAIL_LENGTH} characters.`);
  return email;
}

export async function handleAuthRequest(req: Request, method: "GET" | "POST"): Promise<Response> {
  const headers = new Headers(req.headers);
  // The body is passed on as the bytes already read; the original framing no longer applies.
  headers.delete("content-length");
  headers.delete("transfer-encoding");
  const address = clientAddress(req.headers);
  if (address) headers.set(CLIENT_ADDRESS_HEADER, address);
  else headers.delete(CLIENT_ADDRESS_HEADER);
  let body: Uint8Array<ArrayBuffer> | undefined;
  let attempt: SignInAttempt | undefined;
  if (method === "POST") {
    body = await readBodyBytes(req, AUTH_MAX_BODY_BYTES);
    if (SIGN_IN_PATH.test(new URL(req.url).pathname)) {
      const email = signInEmail(req.headers.get("content-type"), body);
      if (email !== null) attempt = await beginSignInAttempt(email);
    }
  }
  const forwarded = new Request(req.url, {
    method,
    headers,
    body: body && body.byteLength > 0 ? body : undefined,
    signal: req.signal,
  });
  let status = 500;
  try {
    const res = await toNextJsHandler(getAuth())[method](forwarded);
    status = res.status;
    return res;
  } finally {
    if (attempt) await settleSignInAttempt(attempt, status);
  }
}
