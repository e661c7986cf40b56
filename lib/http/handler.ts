import "server-only";
import { currentRequestId, withRequestContext } from "../log";
import { assertSameOrigin } from "./origin";
import { errorResponse } from "./respond";

type Ctx<P> = { params: Promise<P> };

/**
 * Wraps a route handler: origin check for state changes, and every thrown error mapped to the
 * JSON contract. Route files stay "parse -> auth -> call lib -> respond".
 */
export function handler<P = Record<string, never>>(
  fn: (req: Request, params: P) => Promise<Response>,
): (req: Request, ctx: Ctx<P>) => Promise<Response> {
  return (req, ctx) =>
    // Every log line of this request (and of a chat turn streaming after it) carries its id.
    withRequestContext(async () => {
      let res: Response;
      try {
        assertSameOrigin(req);
        res = await fn(req, ctx ? await ctx.params : ({} as P));
      } catch (err) {
        res = errorResponse(err);
      }
      return withRequestId(res);
    });
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
