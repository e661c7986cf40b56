import "server-only";

/**
 * Was this request served over HTTPS? Either directly, or by a TLS-terminating proxy that says
 * so. A client that forges the header on plain HTTP only gets cookies its browser will not keep.
 */
export function servedOverHttps(req: Request): boolean {
  const forwarded = req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return forwarded ? forwarded === "https" : new URL(req.url).protocol === "https:";
}

/**
 * better-auth fixes the cookie attributes once, at start. Without BETTER_AUTH_URL we cannot know
 * the scheme then, so cookies are issued without `Secure` (a Secure cookie would be dropped by
 * browsers on plain http://host:3000 and sign-in would silently fail) and `Secure` is added here,
 * per response, whenever the request itself came over HTTPS.
 */
export function withSecureCookies(req: Request, res: Response): Response {
  const cookies = res.headers.getSetCookie();
  if (!servedOverHttps(req) || cookies.length === 0) return res;
  const headers = new Headers(res.headers);
  headers.delete("set-cookie");
  for (const c of cookies)
    headers.append("set-cookie", /;\s*secure\b/i.test(c) ? c : `${c}; Secure`);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}
