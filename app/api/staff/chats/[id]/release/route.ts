import { requireStaff } from "@/lib/auth/session";
import { releaseChat } from "@/lib/chat/handoff";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { limitStaffDecisions } from "@/lib/http/rate-limit";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/**
 * POST /api/staff/chats/{id}/release (no body): hands the chat back to the assistant and answers
 * {"handoff": null}. 404 unknown chat, 409 not_handed_off (also the second of two releases).
 * Staff only.
 */
export const POST = handler<{ id: string }>(async (req, { id }) => {
  const staff = await requireStaff(req.headers);
  await limitStaffDecisions(staff.id);
  const out = await releaseChat({ chatId: id, staff: { id: staff.id, name: staff.name } });
  return json(out, { headers: { "Cache-Control": "no-store" } });
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
