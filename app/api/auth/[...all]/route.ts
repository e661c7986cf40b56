import { toContractError } from "@/lib/auth/contract-error";
import { withSecureCookies } from "@/lib/auth/secure-cookies";
import { handleAuthRequest } from "@/lib/auth/sign-in-guard";
import { withRequestId } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { errorResponse } from "@/lib/http/respond";
import { withRequestContext } from "@/lib/log";

// Resolved per request so the auth instance always matches the configured database.
function handle(req: Request, method: "GET" | "POST"): Promise<Response> {
  return withRequestContext(async () => {
    try {
      const res = await toContractError(await handleAuthRequest(req, method));
      return withRequestId(withSecureCookies(req, res));
    } catch (err) {
      return withRequestId(errorResponse(err));
    }
  });
}

export const GET = (req: Request) => handle(req, "GET");
export const POST = (req: Request) => handle(req, "POST");

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { PUT, PATCH, DELETE } = notAllowed("GET", "POST");
