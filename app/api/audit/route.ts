import { queryAuditEvents } from "@/lib/audit/query";
import { requireStaff } from "@/lib/auth/session";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/**
 * GET /api/audit (docs/api.md "Audit"): staff only; 401 without a session, 403 for customers.
 * Auth comes before parsing here so that nobody but staff learns anything, not even which
 * parameters are valid.
 */
export const GET = handler(async (req) => {
  await requireStaff(req.headers);
  const page = await queryAuditEvents(new URL(req.url).searchParams);
  return json(page, { headers: { "Cache-Control": "no-store" } });
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
