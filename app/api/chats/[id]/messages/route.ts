import { runChatTurn } from "@/lib/ai/turn";
import { requireCustomer } from "@/lib/auth/session";
import { beginTurn, endTurn, requireChat, turnDeadlineMs } from "@/lib/chat/service";
import { env } from "@/lib/env";
import { readJson } from "@/lib/http/body";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";
import { rateLimit } from "@/lib/http/rate-limit";
import { normalizeMessageText, sendMessageBody } from "./schema";

export const dynamic = "force-dynamic";

/**
 * One chat turn. Every refusal happens before the stream starts, so a refused message is
 * neither stored nor sent to the model.
 */
export const POST = handler<{ id: string }>(async (req, { id }) => {
  // Who is asking comes first: an anonymous request learns nothing about bodies (401, not 400/413/415).
  const user = await requireCustomer(req.headers);
  const body = await readJson(req, sendMessageBody);
  const chat = await requireChat({ chatId: id, userId: user.id });
  const text = normalizeMessageText(body.text);
  await rateLimit(`chat:${user.id}`, env().CHAT_RATE_LIMIT_PER_MINUTE);
  const lease = await beginTurn({ chatId: chat.id, userId: user.id });
  try {
    // From here the turn owns the lease and releases it when its stream is done.
    return await runChatTurn({
      userId: user.id,
      chat,
      text,
      deadlineMs: turnDeadlineMs(),
      endTurn: async () => await endTurn(lease),
    });
  } catch (err) {
    await endTurn(lease);
    throw err;
  }
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
