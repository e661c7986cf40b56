import { RejectRequestSchema } from "@/lib/api/schemas";
import { requireStaff } from "@/lib/auth/session";
import { reject } from "@/lib/chat/approvals";
import { readJson } from "@/lib/http/body";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { limitStaffDecisions } from "@/lib/http/rate-limit";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** POST /api/staff/actions/{id}/reject {"reason"}: declines an action awaiting approval. Staff only. */
export const POST = handler<{ id: string }>(async (req, { id }) => {
  const staff = await requireStaff(req.headers);
  const { reason } = await readJson(req, RejectRequestSchema);
  await limitStaffDecisions(staff.id);
  return json(await reject({ actionId: id, staffId: staff.id, reason }), {
    headers: { "Cache-Control": "no-store" },
  });
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
