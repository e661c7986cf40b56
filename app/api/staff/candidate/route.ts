import { requireStaff } from "@/lib/auth/session";
import { candidateReport } from "@/lib/chat/candidate/report";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/**
 * GET /api/staff/candidate: the candidate profile against the live one in shadow (agreement on
 * tools and arguments, writes, refusals, errors, latency and tokens) and the newest comparisons.
 * Staff only.
 */
export const GET = handler(async (req) => {
  await requireStaff(req.headers);
  return json(await candidateReport(), { headers: { "Cache-Control": "no-store" } });
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
