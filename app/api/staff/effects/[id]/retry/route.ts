import { RetryEffectBody } from "@/lib/api/schemas";
import { requireStaff } from "@/lib/auth/session";
import { readJson } from "@/lib/http/body";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { limitStaffDecisions } from "@/lib/http/rate-limit";
import { json } from "@/lib/http/respond";
import { retryQueuedEffect } from "@/lib/work-queue/queue";

export const dynamic = "force-dynamic";

/**
 * POST /api/staff/effects/{id}/retry {"updatedAt"}: a failed or needs_attention effect goes back
 * to the relay (pending, fresh attempt budget, same idempotency key), if it is still as the
 * staff member saw it. Audited. 409 in any other status or once it changed, 404 for an unknown
 * id. Staff only, same origin.
 */
export const POST = handler<{ id: string }>(async (req, { id }) => {
  const staff = await requireStaff(req.headers);
  const { updatedAt } = await readJson(req, RetryEffectBody);
  await limitStaffDecisions(staff.id);
  return json(await retryQueuedEffect({ id, staffId: staff.id, seen: new Date(updatedAt) }), {
    headers: { "Cache-Control": "no-store" },
  });
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
