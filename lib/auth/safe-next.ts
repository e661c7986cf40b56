/**
 * Only paths on this site: `?next=https://evil`, `//evil` and `/\evil` (which browsers and URL
 * parsing turn into another host) must not become an open redirect after sign-in.
 *
 * The raw value is not what decides: `/.//evil` resolves to the path
 * `//evil`, which the browser then reads as another host, and the router decodes `%2F` and `%5C`
 * before it navigates, so `/./%2F%2Fevil` and `/.%2F/evil` end up there too. What is checked is
 * the path as it will finally be followed: resolved, decoded until it no longer changes, and
 * resolved again. It must still be on this site and start with exactly one slash.
 */
export function safeNext(value: string | null, origin = "http://localhost"): string {
  if (!value?.startsWith("/")) return "/";
  try {
    const url = new URL(value, origin);
    if (url.origin !== origin) return "/";
    let decoded = url.pathname;
    for (let i = 0; i < 5; i++) {
      const next = decodeURIComponent(decoded);
      if (next === decoded) break;
      decoded = next;
    }
    const followed = new URL(decoded, origin);
    if (!isOnePath(url.pathname) || !isOnePath(decoded) || !isOnePath(followed.pathname))
      return "/";
    if (followed.origin !== origin) return "/";
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    // A malformed escape (decodeURIComponent) or an unparsable value.
    return "/";
  }
}

/** One slash, then not a second slash or a backslash; no control characters anywhere. */
function isOnePath(path: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses.
  return /^\/(?![/\\])/.test(path) && !path.includes("\\") && !/[\u0000-\u001f\u007f]/.test(path);
}
