/**
 * Strict-Transport-Security: once a browser has reached us over https, it must never again be
 * talked into plain http (a network on the way could then read or change the session). Sent
 * when the deployment is https (BETTER_AUTH_URL) or the request came over https, directly or
 * through a TLS-terminating proxy that says so (X-Forwarded-Proto). Browsers ignore the header
 * on a plain-http answer, so a client forging X-Forwarded-Proto gains nothing. No
 * includeSubDomains: other hosts under the same domain are not ours to decide for.
 * Free of "server-only": the proxy (proxy.ts) imports it.
 */
import { env } from "../env";

export const HSTS = "max-age=31536000";

export function wantsHsts(req: Request): boolean {
  if (env().BETTER_AUTH_URL?.startsWith("https://")) return true;
  const forwarded = req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return forwarded ? forwarded === "https" : new URL(req.url).protocol === "https:";
}
