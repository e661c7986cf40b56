import { normalizeMessageText, sendMessageBody } from "@/lib/api/message";
import { requireStaff } from "@/lib/auth/session";
import { replyAsStaff } from "@/lib/chat/handoff";
import { readJson } from "@/lib/http/body";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { rateLimit } from "@/lib/http/rate-limit";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/**
 * POST /api/staff/chats/{id}/messages {"text"}: a staff reply in a handed-off chat, shown to the
 * customer with the staff member's name; the handoff becomes `active`. The text is checked and
 * normalised exactly like a customer's message. 404 unknown chat, 409 not_handed_off. Staff only.
 */
export const POST = handler<{ id: string }>(async (req, { id }) => {
  const staff = await requireStaff(req.headers);
  const body = await readJson(req, sendMessageBody);
  const text = normalizeMessageText(body.text);
  await rateLimit(`staff-reply:${staff.id}`, 60);
  const out = await replyAsStaff({
    chatId: id,
    staff: { id: staff.id, name: staff.name },
    text,
  });
  return json(out, { status: 201, headers: { "Cache-Control": "no-store" } });
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
