import "server-only";
import { env } from "../env";
import { AppError } from "../errors";

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
 * Refuses state-changing requests sent by another site's page. Browsers attach Origin (and
 * Sec-Fetch-Site) to every cross-origin POST; clients without a browser send neither and
 * still need a session cookie, so they pass.
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
  const host = requestHost(req);
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw new AppError("forbidden_origin", "Malformed Origin header.");
  }
  if (!host || originHost !== host) {
    throw new AppError("forbidden_origin", "Cross-site requests are not allowed.");
  }
}
