import { sendMessageBody } from "@/lib/api/message";
import { requireCustomer } from "@/lib/auth/session";
import { turnAdmission } from "@/lib/chat/admission";
import { takeTurn } from "@/lib/chat/turn";
import { readJson } from "@/lib/http/body";
import { handler } from "@/lib/http/handler";
import { notAllowed } from "@/lib/http/methods";

export const dynamic = "force-dynamic";

/**
 * One chat turn: this handler parses and authenticates, then the turn (lib/chat/turn.ts) checks
 * the chat and the rate limit and owns the turn lease. Every refusal happens before the stream
 * starts, so a refused message is neither stored nor sent to the model.
 */
export const POST = handler<{ id: string }>(async (req, { id }) => {
  // A slot among this instance's running turns, after a wait in line, or 503 overloaded at once.
  // First of all: on a saturated server the session lookup, the chat and the rate limit (database
  // work on a busy event loop) are what a turn waits on before its stream even starts, so the line
  // must come before them to bound that wait. A refused or anonymous request gives its slot back;
  // while waiting in line it holds nothing but its place.
  const slot = await turnAdmission().enter(req.signal);
  let user: Awaited<ReturnType<typeof requireCustomer>>;
  let body: { text: string };
  try {
    // Who is asking comes first: an anonymous request learns nothing about bodies (401, not 400/413/415).
    user = await requireCustomer(req.headers);
    body = await readJson(req, sendMessageBody);
  } catch (err) {
    slot.release();
    throw err;
  }
  // From here the turn owns the slot: it releases it, and the lease, in every case.
  return await takeTurn({
    userId: user.id,
    chatId: id,
    text: body.text,
    slot,
    visitor: user.guest,
  });
});

// Unsupported methods get the contract's JSON 405 (lib/http/methods.ts).
export const { GET, PUT, PATCH, DELETE } = notAllowed("POST");
