import "server-only";
import { env } from "../env";
import { AppError } from "../errors";

/**
 * The origin this server is published at (scheme, host and port), from configuration only:
 * BETTER_AUTH_URL's origin. Null when it is not configured (a local demo).
 */
export function configuredOrigin(): string | null {
  const url = env().BETTER_AUTH_URL;
  return url ? new URL(url).origin : null;
}

/**
 * The host the browser addressed. X-Forwarded-Host is anyone's to write: it is believed only with
 * TRUST_PROXY (proxies of our own in front, which set it), and then its first entry (the host the
 * outermost proxy was asked for). Otherwise a page on evil.example could name itself there and
 * pass.
 */
function requestHost(req: Request): string | null {
  const forwarded = env().TRUST_PROXY > 0 ? req.headers.get("x-forwarded-host") : null;
  const first = forwarded?.split(",")[0]?.trim();
  return first || req.headers.get("host");
}

/**
 * The scheme the browser used: with TRUST_PROXY the outermost proxy's word; otherwise the
 * request URL's, which Next.js itself takes from X-Forwarded-Proto when one is sent (a browser
 * cannot set that header on another site's request, so a page cannot choose it).
 */
function requestScheme(req: Request): string {
  const forwarded =
    env().TRUST_PROXY > 0
      ? req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase()
      : undefined;
  if (forwarded === "https" || forwarded === "http") return forwarded;
  return new URL(req.url).protocol.replace(/:$/, "");
}

/**
 * The origin a request from our own pages carries: the configured one when there is one (a Host
 * or forwarded header cannot change it), else the scheme, host and port this request reached.
 */
export function expectedOrigin(req: Request): string | null {
  const configured = configuredOrigin();
  if (configured) return configured;
  const host = requestHost(req);
  if (!host) return null;
  try {
    return new URL(`${requestScheme(req)}://${host}`).origin;
  } catch {
    return null;
  }
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** A request that reached us by a loopback name: only this machine's browser sends one. */
export function isLoopbackRequest(req: Request): boolean {
  const host = requestHost(req);
  if (!host) return false;
  try {
    const name = new URL(`http://${host}`).hostname;
    return LOOPBACK.has(name) || name.endsWith(".localhost");
  } catch {
    return false;
  }
}

/**
 * Refuses state-changing requests sent by another site's page. Browsers attach Origin (and
 * Sec-Fetch-Site) to every cross-origin POST; clients without a browser send neither and
 * still need a session cookie, so they pass. The Origin must be ours as a whole: scheme, host
 * and port. A page on https://localhost:3000 is another origin than http://localhost:3000 (a
 * different server may listen there), so equal hosts alone are not enough.
 */
export function assertSameOrigin(req: Request): void {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return;
  const site = req.headers.get("sec-fetch-site");
  if (site === "cross-site")
    throw new AppError("forbidden_origin", "Cross-site requests are not allowed.");
  const origin = req.headers.get("origin");
  if (!origin || origin === "null") {
    if (origin === "null")
      throw new AppError("forbidden_origin", "Cross-site requests are not allowed.");
    return;
  }
  let sent: string;
  try {
    sent = new URL(origin).origin;
  } catch {
    throw new AppError("forbidden_origin", "Malformed Origin header.");
  }
  const expected = expectedOrigin(req);
  if (!expected || sent !== expected) {
    throw new AppError("forbidden_origin", "Cross-site requests are not allowed.");
  }
}
