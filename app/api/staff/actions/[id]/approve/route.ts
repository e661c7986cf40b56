import { requireStaff } from "@/lib/auth/session";
import { approve } from "@/lib/chat/approvals";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { limitStaffDecisions } from "@/lib/http/rate-limit";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/**
 * POST /api/staff/actions/{id}/approve (no body): executes exactly the stored arguments of an
 * action awaiting approval, once. Staff only: a customer gets 403, never an approval.
 */
export const POST = handler<{ id: string }>(async (req, { id }) => {
  const staff = await requireStaff(req.headers);
  await limitStaffDecisions(staff.id);
  return json(await approve({ actionId: id, staffId: staff.id }), {
    headers: { "Cache-Control": "no-store" },
  });
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
