import { requireStaff } from "@/lib/auth/session";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { limitStaffDecisions } from "@/lib/http/rate-limit";
import { json } from "@/lib/http/respond";
import { markReturnReceived } from "@/lib/returns/receive";

export const dynamic = "force-dynamic";

/**
 * POST /api/staff/returns/{requestId}/receive (no body): the return's parcel arrived. Marks it
 * received (audited with who and when) and schedules its refund through the payment provider;
 * answers {"return": StaffReturn}. A second call is 409 conflict (with the return as it stands),
 * 404 for an unknown request. Staff only (a customer gets 403), same origin.
 */
export const POST = handler<{ requestId: string }>(async (req, { requestId }) => {
  const staff = await requireStaff(req.headers);
  await limitStaffDecisions(staff.id);
  return json(await markReturnReceived({ requestId, staffId: staff.id }), {
    headers: { "Cache-Control": "no-store" },
  });
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
