import { type NextRequest, NextResponse } from "next/server";

/**
 * Refuses paths with a malformed percent-escape (`/api/chats/%ZZ`). Next decodes dynamic route
 * params after this point and, on failure, tries to render a /400 page the App Router does not
 * have, answering a bare 500. A client error is a 400, and API clients get the JSON contract.
 */
export function proxy(req: NextRequest): NextResponse {
  try {
    if (req.nextUrl.pathname.includes("%")) decodeURIComponent(req.nextUrl.pathname);
    return NextResponse.next();
  } catch {
    if (req.nextUrl.pathname.startsWith("/api/")) {
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
}

// The routes with dynamic segments; static assets never pass through here.
export const config = { matcher: ["/api/:path*", "/chat/:path*"] };
