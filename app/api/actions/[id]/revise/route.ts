import { ReviseRequestSchema } from "@/lib/api/schemas";
import { requireCustomer } from "@/lib/auth/session";
import { revise } from "@/lib/chat/revise";
import { readJson } from "@/lib/http/body";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { limitRevisions } from "@/lib/http/rate-limit";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/**
 * POST /api/actions/{id}/revise {"args":{…}}: the owner's edit of a pending proposal.
 * Answers {"pendingAction"}: the new pending action; the old one is superseded ("revised").
 */
export const POST = handler<{ id: string }>(async (req, { id }) => {
  const user = await requireCustomer(req.headers);
  const body = await readJson(req, ReviseRequestSchema);
  await limitRevisions(user.id);
  return json(await revise({ actionId: id, userId: user.id, changes: body.args }));
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
