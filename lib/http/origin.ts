import "server-only";
import { AppError } from "../errors";

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
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
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
