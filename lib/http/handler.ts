import "server-only";
import { inSpanAsync, routeName } from "@/lib/telemetry/tracer";
import { currentRequestId, withRequestContext } from "../log";
import { assertSameOrigin } from "./origin";
import { errorResponse } from "./respond";

type Ctx<P> = { params: Promise<P> };

/**
 * Wraps a route handler: origin check for state changes, and every thrown error mapped to the
 * JSON contract. Route files stay "parse -> auth -> call lib -> respond". With tracing on, the
 * handler is one span (route template and status only).
 */
export function handler<P = Record<string, never>>(
  fn: (req: Request, params: P) => Promise<Response>,
): (req: Request, ctx: Ctx<P>) => Promise<Response> {
  return (req, ctx) =>
    // Every log line of this request (and of a chat turn streaming after it) carries its id.
    withRequestContext(() =>
      inSpanAsync(
        `handler ${routeName(req)}`,
        { "http.request.method": req.method },
        async (span) => {
          let res: Response;
          try {
            assertSameOrigin(req);
            res = await fn(req, ctx ? storableParams(await ctx.params) : ({} as P));
          } catch (err) {
            res = errorResponse(err);
          }
          span?.setAttribute("http.response.status_code", res.status);
          return withRequestId(res);
        },
      ),
    );
}

/**
 * A path segment is text the client chose, and PostgreSQL text cannot hold NUL: a query with one
 * fails (a 500) where SQLite simply finds nothing. No id of ours contains NUL, so it becomes
 * U+FFFD, which no id contains either: the lookup runs as usual, after the route's own session
 * check, and finds nothing (404 `not_found`) on both databases. Not stripped: the real id with
 * a NUL appended must stay unknown.
 */
function storableParams<P>(params: P): P {
  if (!params || typeof params !== "object") return params;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params))
    out[k] =
      typeof v === "string"
        ? v.replaceAll("\u0000", "\uFFFD")
        : Array.isArray(v)
          ? v.map((s) => (typeof s === "string" ? s.replaceAll("\u0000", "\uFFFD") : s))
          : v;
  return out as P;
}

/** The request id goes back to the client, so a support ticket can name the log lines. */
export function withRequestId(res: Response): Response {
  const id = currentRequestId();
  if (!id) return res;
  try {
    res.headers.set("X-Request-Id", id);
    return res;
  } catch {
    // Immutable headers (a fetched response passed through): copy them.
    const headers = new Headers(res.headers);
    headers.set("X-Request-Id", id);
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  }
}
