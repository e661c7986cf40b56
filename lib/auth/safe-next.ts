/**
 * Only paths on this site: `?next=https://evil`, `//evil` and `/\evil` (which browsers and URL
 * parsing turn into another host) must not become an open redirect after sign-in.
 */
export function safeNext(value: string | null, origin = "http://localhost"): string {
  if (!value?.startsWith("/")) return "/";
  try {
    const url = new URL(value, origin);
    return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : "/";
  } catch {
    return "/";
  }
}
