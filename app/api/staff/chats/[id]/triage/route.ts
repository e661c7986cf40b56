import { triageChat } from "@/lib/ai/triage";
import { requireStaff } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { rateLimit } from "@/lib/http/rate-limit";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/**
 * POST /api/staff/chats/{id}/triage (no body): triages the chat now, stores it on the chat and
 * returns {"triage": StoredTriage}. 404 for an unknown chat, 502 model_unavailable when the
 * model fails (the previous triage is kept). Staff only.
 */
export const POST = handler<{ id: string }>(async (req, { id }) => {
  const staff = await requireStaff(req.headers);
  // A model call costs money and time; a stuck button or script should not run up a bill.
  await rateLimit(`triage:${staff.id}`, 30);
  const triage = await triageChat({ chatId: id, staffId: staff.id });
  if (!triage) throw new AppError("not_found", "No such chat.");
  return json({ triage }, { headers: { "Cache-Control": "no-store" } });
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
