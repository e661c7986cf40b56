import { requireStaff } from "@/lib/auth/session";
import { listHandoffQueue } from "@/lib/chat/handoff";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** GET /api/staff/handoffs: the chats waiting for or talking to a person. Staff only. */
export const GET = handler(async (req) => {
  await requireStaff(req.headers);
  return json(await listHandoffQueue(), { headers: { "Cache-Control": "no-store" } });
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
