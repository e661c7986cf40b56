import { requireCustomer } from "@/lib/auth/session";
import { listChats, startChat } from "@/lib/chat/service";
import { env } from "@/lib/env";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { rateLimit } from "@/lib/http/rate-limit";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/**
 * Start a new chat; pending actions in the user's other chats are superseded. Limited like
 * messages (CHAT_RATE_LIMIT_PER_MINUTE, a bucket of its own): every chat is a row, and a new
 * one also withdraws the customer's open proposals, so a script must not loop on it.
 */
export const POST = handler(async (req) => {
  const user = await requireCustomer(req.headers);
  await rateLimit(`chat-new:${user.id}`, env().CHAT_RATE_LIMIT_PER_MINUTE, { what: "new chats" });
  return json(
    { chat: await startChat({ userId: user.id, embedOrigin: user.embedOrigin }) },
    { status: 201 },
  );
});

/** The user's own chats, newest first. */
export const GET = handler(async (req) => {
  const user = await requireCustomer(req.headers);
  return json({ chats: await listChats({ userId: user.id }) });
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { PUT, PATCH, DELETE } = notAllowed("GET", "POST");
