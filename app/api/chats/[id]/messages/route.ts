import { runChatTurn } from "@/lib/ai/turn";
import { requireCustomer } from "@/lib/auth/session";
import { turnAdmission } from "@/lib/chat/admission";
import { beginTurn, endTurn, requireChat, turnDeadlineMs } from "@/lib/chat/service";
import { env } from "@/lib/env";
import { answerInHandoff } from "@/lib/handoff/customer";
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
  // A slot among this instance's running turns, after a wait in line, or 503 overloaded at once.
  // First of all: on a saturated server the session lookup, the chat and the rate limit (database
  // work on a busy event loop) are what a turn waits on before its stream even starts, so the line
  // must come before them to bound that wait. A refused or anonymous request gives its slot back
  // below; while waiting in line it holds nothing but its place.
  const slot = await turnAdmission().enter(req.signal);
  let lease: Awaited<ReturnType<typeof beginTurn>>;
  let user: Awaited<ReturnType<typeof requireCustomer>>;
  let chat: Awaited<ReturnType<typeof requireChat>>;
  let text: string;
  try {
    // Who is asking comes first: an anonymous request learns nothing about bodies (401, not 400/413/415).
    user = await requireCustomer(req.headers);
    const body = await readJson(req, sendMessageBody);
    chat = await requireChat({ chatId: id, userId: user.id });
    text = normalizeMessageText(body.text);
    await rateLimit(`chat:${user.id}`, env().CHAT_RATE_LIMIT_PER_MINUTE);
    lease = await beginTurn({ chatId: chat.id, userId: user.id });
  } catch (err) {
    slot.release();
    throw err;
  }
  try {
    const finish = async () => {
      slot.release();
      return await endTurn(lease);
    };
    // A chat a person has taken over: stored with a short note, the model is not called.
    const handedOff = await answerInHandoff({ chat, text, endTurn: finish });
    if (handedOff) return handedOff;
    // From here the turn owns the lease and the slot, and releases both when its stream is done.
    return await runChatTurn({
      userId: user.id,
      chat,
      text,
      deadlineMs: turnDeadlineMs(),
      endTurn: finish,
    });
  } catch (err) {
    slot.release();
    await endTurn(lease);
    throw err;
  }
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
