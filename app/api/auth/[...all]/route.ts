import { toNextJsHandler } from "better-auth/next-js";
import { getAuth } from "@/lib/auth/auth";
import { toContractError } from "@/lib/auth/contract-error";
import { withSecureCookies } from "@/lib/auth/secure-cookies";
import { notAllowed } from "@/lib/http/methods";
import { errorResponse } from "@/lib/http/respond";

// Resolved per request so the auth instance always matches the configured database.
async function handle(req: Request, method: "GET" | "POST"): Promise<Response> {
  try {
    const res = await toContractError(await toNextJsHandler(getAuth())[method](req));
    return withSecureCookies(req, res);
  } catch (err) {
    return errorResponse(err);
  }
}

export const GET = (req: Request) => handle(req, "GET");
export const POST = (req: Request) => handle(req, "POST");

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { PUT, PATCH, DELETE } = notAllowed("GET", "POST");
