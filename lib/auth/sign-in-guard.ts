/**
 * What stands in front of better-auth's handler (app/api/auth/[...all]): the client address it
 * rate-limits by is ours (lib/http/client-address.ts), never a header the client wrote, and a
 * password sign-in passes the per-account limiter first (lib/auth/account-throttle.ts).
 */
import "server-only";
import { toNextJsHandler } from "better-auth/next-js";
import { clientAddress } from "../http/client-address";
import { assertSignInAllowed, noteSignInResult } from "./account-throttle";
import { CLIENT_ADDRESS_HEADER, getAuth } from "./auth";

const SIGN_IN_PATH = /\/api\/auth\/sign-in\/email\/?$/;

async function signInEmail(req: Request): Promise<string | null> {
  try {
    const body = (await req.clone().json()) as unknown;
    const email = (body as { email?: unknown } | null)?.email;
    return typeof email === "string" ? email : null;
  } catch {
    // Not JSON: better-auth answers it; there is no account to count against.
    return null;
  }
}

export async function handleAuthRequest(req: Request, method: "GET" | "POST"): Promise<Response> {
  const email =
    method === "POST" && SIGN_IN_PATH.test(new URL(req.url).pathname)
      ? await signInEmail(req)
      : null;
  if (email) await assertSignInAllowed(email);
  const headers = new Headers(req.headers);
  const address = clientAddress(req.headers);
  if (address) headers.set(CLIENT_ADDRESS_HEADER, address);
  else headers.delete(CLIENT_ADDRESS_HEADER);
  const res = await toNextJsHandler(getAuth())[method](new Request(req, { headers }));
  if (email) await noteSignInResult(email, res.status);
  return res;
}
