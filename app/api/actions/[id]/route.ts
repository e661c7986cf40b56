import { requireUser } from "@/lib/auth/session";
import { actionDetail } from "@/lib/chat/action-detail";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** One action with its effects: the owner's own, or any for staff; otherwise 404. */
export const GET = handler<{ id: string }>(async (req, { id }) => {
  const user = await requireUser(req.headers);
  return json(await actionDetail({ actionId: id, user }));
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
