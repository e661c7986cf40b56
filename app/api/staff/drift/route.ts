import { requireStaff } from "@/lib/auth/session";
import { driftReport } from "@/lib/chat/candidate/drift";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/**
 * GET /api/staff/drift: each profile's closed windows with their signals, corridors and
 * breaches, and the newest alerts. Staff only.
 */
export const GET = handler(async (req) => {
  await requireStaff(req.headers);
  return json(await driftReport(), { headers: { "Cache-Control": "no-store" } });
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
