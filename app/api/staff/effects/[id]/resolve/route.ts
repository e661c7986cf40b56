import { ResolveEffectBody } from "@/lib/api/schemas";
import { requireStaff } from "@/lib/auth/session";
import { readJson } from "@/lib/http/body";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { limitStaffDecisions } from "@/lib/http/rate-limit";
import { json } from "@/lib/http/respond";
import { resolveQueuedEffect } from "@/lib/work-queue/queue";

export const dynamic = "force-dynamic";

/**
 * POST /api/staff/effects/{id}/resolve {"note"}: staff settled a failed or needs_attention effect
 * by hand; it ends `resolved` with the note (audited), and the customer's card says our team
 * settled it. A second resolve is 409; 404 for an unknown id. Staff only, same origin.
 */
export const POST = handler<{ id: string }>(async (req, { id }) => {
  const staff = await requireStaff(req.headers);
  const { note } = await readJson(req, ResolveEffectBody);
  await limitStaffDecisions(staff.id);
  return json(await resolveQueuedEffect({ id, staffId: staff.id, note }), {
    headers: { "Cache-Control": "no-store" },
  });
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
