import { acknowledgeAlert } from "@/lib/alerts";
import { requireStaff } from "@/lib/auth/session";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/**
 * POST /api/staff/alerts/{id}/acknowledge: a staff member has seen the alert; its banner goes
 * from the staff pages. Audited. Again: answers it as it is. 404 for an unknown id. Staff only.
 */
export const POST = handler<{ id: string }>(async (req, { id }) => {
  const staff = await requireStaff(req.headers);
  return json(
    { alert: await acknowledgeAlert({ id, staffId: staff.id }) },
    { headers: { "Cache-Control": "no-store" } },
  );
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
