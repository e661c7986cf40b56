import { requireCustomer } from "@/lib/auth/session";
import { listChats, startChat } from "@/lib/chat/service";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/** Start a new chat; pending actions in the user's other chats are superseded. */
export const POST = handler(async (req) => {
  const user = await requireCustomer(req.headers);
  return json({ chat: await startChat({ userId: user.id }) }, { status: 201 });
});

/** The user's own chats, newest first. */
export const GET = handler(async (req) => {
  const user = await requireCustomer(req.headers);
  return json({ chats: await listChats({ userId: user.id }) });
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { PUT, PATCH, DELETE } = notAllowed("GET", "POST");
