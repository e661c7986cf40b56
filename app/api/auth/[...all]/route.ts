import { toNextJsHandler } from "better-auth/next-js";
import { getAuth } from "@/lib/auth/auth";
import { toContractError } from "@/lib/auth/contract-error";
import { errorResponse } from "@/lib/http/respond";

// Resolved per request so the auth instance always matches the configured database.
async function handle(req: Request, method: "GET" | "POST"): Promise<Response> {
  try {
    return await toContractError(await toNextJsHandler(getAuth())[method](req));
  } catch (err) {
    return errorResponse(err);
  }
}

export const GET = (req: Request) => handle(req, "GET");
export const POST = (req: Request) => handle(req, "POST");
