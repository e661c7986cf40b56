import { requireCustomer } from "@/lib/auth/session";
import { confirm } from "@/lib/chat/decide";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** Executes exactly the stored arguments, once. Any body is ignored: the id is the whole request. */
export const POST = handler<{ id: string }>(async (req, { id }) => {
  const user = await requireCustomer(req.headers);
  return json(await confirm({ actionId: id, userId: user.id }));
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
