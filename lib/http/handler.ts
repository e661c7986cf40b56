import "server-only";
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
  return async (req, ctx) => {
    try {
      assertSameOrigin(req);
      return await fn(req, ctx ? await ctx.params : ({} as P));
    } catch (err) {
      return errorResponse(err);
    }
  };
}
