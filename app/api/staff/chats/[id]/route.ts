import type { StaffTranscriptResponse } from "@/lib/api/schemas";
import { loadTranscript } from "@/lib/audit/transcript";
import { requireStaff } from "@/lib/auth/session";
import { AppError } from "@/lib/errors";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/**
 * GET /api/staff/chats/{id}: any customer's chat, read-only, for support staff (401/403 as
 * /api/audit). Messages are the stored UI message parts as the customer saw them.
 */
export const GET = handler<{ id: string }>(async (req, { id }) => {
  await requireStaff(req.headers);
  const t = await loadTranscript({ chatId: id });
  if (!t) throw new AppError("not_found", "No such chat.");
  const body: StaffTranscriptResponse = {
    chat: { ...t.chat, createdAt: t.chat.createdAt.toISOString() },
    customer: t.customer && {
      id: t.customer.id,
      email: t.customer.email,
      name: t.customer.name,
      storeCustomerId: t.customer.storeCustomerId,
    },
    messages: t.messages.map((m) => ({ ...m, at: m.at.toISOString() })),
    truncated: t.truncated,
    actions: t.actions.map((a) => ({
      id: a.id,
      tool: a.tool,
      arguments: a.arguments,
      plan: a.plan,
      status: a.status,
      result: a.result,
      errorCode: a.errorCode,
      createdAt: a.createdAt.toISOString(),
      expiresAt: a.expiresAt.toISOString(),
      decidedAt: a.decidedAt?.toISOString() ?? null,
      decidedBy: a.decidedBy,
    })),
    triage: t.triage,
  };
  return json(body, { headers: { "Cache-Control": "no-store" } });
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
