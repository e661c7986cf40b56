/**
 * The Content-Security-Policy. Pages get a fresh nonce per request and 'strict-dynamic': only
 * scripts Next.js itself emits (which carry the nonce) and what they load may run, so an
 * injected <script> or inline handler never does, even if markup slipped through rendering.
 * Model and user text is rendered as text/markdown, never as HTML; this is the second fence.
 */
export function contentSecurityPolicy({
  nonce,
  dev,
  frameAncestors = [],
}: {
  nonce: string;
  dev: boolean;
  /** The origins that may frame this page: the stores' origins on /embed, nobody elsewhere. */
  frameAncestors?: readonly string[];
}): string {
  return [
    "default-src 'self'",
    // 'unsafe-eval' only for `next dev` (hot reload); never in a production build.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    // Inline style attributes (React `style={}`) are not script; allowing them keeps layout simple.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors.length > 0 ? frameAncestors.join(" ") : "'none'"}`,
  ].join("; ");
}

/** 128 random bits, base64: unguessable, fresh for every page view. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/** The embedded chat's pages: the only ones a store's page may frame. */
export function isEmbedPath(pathname: string): boolean {
  return pathname === "/embed" || pathname.startsWith("/embed/");
}
