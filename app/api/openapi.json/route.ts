import { openApiDocument } from "@/lib/api/openapi";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";

export const dynamic = "force-dynamic";

/** GET /api/openapi.json (no auth): the machine-readable contract of every endpoint. */
export const GET = handler(async () =>
  Response.json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } }),
);

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
