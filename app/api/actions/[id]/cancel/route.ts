import { requireCustomer } from "@/lib/auth/session";
import { cancel } from "@/lib/chat/decide";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** Drops the proposal without running anything. */
export const POST = handler<{ id: string }>(async (req, { id }) => {
  const user = await requireCustomer(req.headers);
  return json(await cancel({ actionId: id, userId: user.id }));
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
