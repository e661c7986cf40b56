import { RollbackBody } from "@/lib/api/drift";
import { requireStaff } from "@/lib/auth/session";
import { rollbackCandidate } from "@/lib/chat/candidate/canary";
import { candidateReport } from "@/lib/chat/candidate/report";
import { readJson } from "@/lib/http/body";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { limitStaffDecisions } from "@/lib/http/rate-limit";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/**
 * POST /api/staff/candidate/rollback {"reason"?}: the canary's kill switch. From now on every
 * turn is live; audited with the staff member and raised as an alert. Again: nothing changes.
 * 409 with no candidate configured. Staff only, same origin. Answers GET /api/staff/candidate.
 */
export const POST = handler(async (req) => {
  const staff = await requireStaff(req.headers);
  const { reason } = await readJson(req, RollbackBody);
  await limitStaffDecisions(staff.id);
  await rollbackCandidate({ staffId: staff.id, reason });
  return json(await candidateReport(), { headers: { "Cache-Control": "no-store" } });
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
