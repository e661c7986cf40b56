import { type NextRequest, NextResponse } from "next/server";
import { env } from "@/lib/env";
import { contentSecurityPolicy, isEmbedPath, newNonce } from "@/lib/http/csp";
import { HSTS, wantsHsts } from "@/lib/http/hsts";

/**
 * Runs before every page and API route:
 * - a per-request CSP nonce: Next.js reads it from the request's CSP header and puts it on the
 *   scripts it renders (pages are rendered per request anyway: they read the session);
 * - framing: /embed and its pages may be framed by the stores in EMBED_ALLOWED_ORIGINS (CSP
 *   frame-ancestors), every other page by nobody (frame-ancestors 'none' and X-Frame-Options);
 * - Strict-Transport-Security on every answer over https (lib/http/hsts.ts);
 * - paths with a malformed percent-escape (`/api/chats/%ZZ`) are refused: Next decodes dynamic
 *   params after this point and, on failure, tries to render a /400 page the App Router does not
 *   have, answering a bare 500. A client error is a 400, and API clients get the JSON contract.
 */
export function proxy(req: NextRequest): NextResponse {
  if (hasMalformedEscape(req.nextUrl.pathname)) return badUrl(req.nextUrl.pathname);
  const embed = isEmbedPath(req.nextUrl.pathname);
  const csp = contentSecurityPolicy({
    nonce: newNonce(),
    dev: process.env.NODE_ENV === "development",
    frameAncestors: embed ? env().EMBED_ALLOWED_ORIGINS : [],
  });
  const headers = new Headers(req.headers);
  headers.set("content-security-policy", csp);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set("Content-Security-Policy", csp);
  // Older browsers read only this; it has no "these origins" form, so /embed goes without it.
  if (!embed) res.headers.set("X-Frame-Options", "DENY");
  if (wantsHsts(req)) res.headers.set("Strict-Transport-Security", HSTS);
  return res;
}

function hasMalformedEscape(pathname: string): boolean {
  if (!pathname.includes("%")) return false;
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

function badUrl(pathname: string): NextResponse {
  if (pathname.startsWith("/api/")) {
    return NextResponse.json(
      { error: { code: "invalid_request", message: "The URL has a malformed escape." } },
      { status: 400 },
    );
  }
  return new NextResponse("Bad request: malformed URL.", {
    status: 400,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}

// Everything but static build assets, which carry no markup to protect.
export const config = { matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"] };
