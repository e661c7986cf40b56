import { requireCustomer } from "@/lib/auth/session";
import { getChatView } from "@/lib/chat/service";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = handler<{ id: string }>(async (req, { id }) => {
  const user = await requireCustomer(req.headers);
  return json(await getChatView({ chatId: id, userId: user.id }));
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { POST, PUT, PATCH, DELETE } = notAllowed("GET");
