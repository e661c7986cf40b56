/**
 * The executor of `action.replan` (lib/effects/replan.ts), registered by the composition root
 * (lib/startup.ts): after the store refused a confirmed write because the order changed there,
 * the same tool plans the refused action's stored arguments again on the order as the store has
 * it now (replanToolCall: validation, business key, plan() and its policy), and the customer's
 * chat gets the app's message, in the chat's language, with the new card, or the existing record,
 * or why it can no longer be done. The old card keeps its own "changed at the store" note.
 *
 * Exactly once per refusal: the fresh action's id and the message's id are derived from the
 * refused action and stored in one transaction with the proposal, so an attempt that finds the
 * message (the relay's lookup after a lost outcome) or loses on its primary key (two relays
 * whose lease overlapped) stores nothing more.
 */
import "server-only";
import { v5 as uuidv5 } from "uuid";
import { getActionById } from "@/db/queries/actions";
import { appendMessages, messageExists } from "@/db/queries/chats";
import { isUniqueViolation, writeTransaction } from "@/db/queries/tx";
import {
  isTransient,
  REPLAN_AUDIT_TOOL,
  replanToolCall,
  type ToolCallOutcome,
} from "@/lib/actions/executor";
import type { ChatUIMessage } from "@/lib/api/parts";
import { recordAudit } from "@/lib/audit-log/record";
import type { ReplanPayload } from "@/lib/effects/kinds";
import type { EffectRef, LookupOutcome, SendOutcome } from "@/lib/effects/providers/types";
import { setReplanner } from "@/lib/effects/replan";
import type { Locale } from "@/lib/text/language";
import { replanNote } from "./app-text";
import { isHandedOff } from "./handoff";
import { presentAction, storedChatLanguage } from "./present";

/** Our namespace for name-based ids (a random UUID of our own, fixed forever). */
const REPLAN_NAMESPACE = "0b7c6f4e-5d8a-4f0e-9a43-2f6a1d3c9e75";

/** The chat message that tells the customer; one per refused action. */
export const replanMessageId = (refusedActionId: string) => `replan-${refusedActionId}`;

/**
 * The fresh action's id: a name-based UUID (version 5) of the refused action's, the same on every
 * attempt, so a second attempt at the replan meets the first one's row.
 */
export const replanActionId = (refusedActionId: string): string =>
  uuidv5(`replan:${refusedActionId}`, REPLAN_NAMESPACE);

function messageOf(id: string, lang: Locale, orderId: string, outcome: ToolCallOutcome) {
  const parts: ChatUIMessage["parts"] = [];
  if (outcome.kind === "proposal") {
    parts.push(
      { type: "text", text: replanNote(lang, "proposal", { orderId }) },
      {
        type: "data-pending-action",
        id: outcome.action.id,
        data: presentAction(outcome.action, lang),
      },
    );
  } else if (outcome.kind === "error") {
    parts.push({
      type: "text",
      text: replanNote(lang, "refused", { orderId, code: outcome.code }),
    });
  } else {
    parts.push({ type: "text", text: replanNote(lang, "existing", { orderId }) });
  }
  return { id, role: "assistant" as const, parts };
}

async function find(_payload: ReplanPayload, ref: EffectRef): Promise<LookupOutcome> {
  const id = replanMessageId(ref.actionId);
  if (!(await messageExists({ id }))) return { kind: "absent" };
  const fresh = await getActionById({ id: replanActionId(ref.actionId) });
  return { kind: "found", providerRef: fresh ? fresh.id : id };
}

async function propose(payload: ReplanPayload, ref: EffectRef): Promise<SendOutcome> {
  const refused = await getActionById({ id: ref.actionId });
  if (!refused) return { kind: "definite", code: "action_not_found" };
  // An earlier attempt whose outcome was lost already did it.
  const earlier = await find(payload, ref);
  if (earlier.kind === "found") return { kind: "succeeded", providerRef: earlier.providerRef };
  const messageId = replanMessageId(refused.id);
  const freshId = replanActionId(refused.id);
  const lang = await storedChatLanguage(refused.chatId);
  const args = (refused.arguments ?? {}) as Record<string, unknown>;
  const orderId = typeof args.orderId === "string" ? args.orderId : "";
  // A person has taken the chat over: they answer now, not a card (a handoff supersedes the
  // chat's pending proposal for the same reason). The customer is told; nothing is planned.
  if (await isHandedOff(refused.chatId)) {
    try {
      await writeTransaction(async () => {
        if (await messageExists({ id: messageId })) throw new AlreadyReplanned();
        await appendMessages({
          chatId: refused.chatId,
          items: [
            {
              id: messageId,
              role: "assistant",
              parts: [{ type: "text", text: replanNote(lang, "handoff", { orderId }) }],
            },
          ],
        });
        await recordAudit({
          tool: REPLAN_AUDIT_TOOL,
          access: "write",
          status: "success",
          errorCode: "handoff",
          userId: refused.userId,
          chatId: refused.chatId,
          actionId: refused.id,
          arguments: {
            tool: payload.tool,
            replaces: refused.id,
            cause: payload.code,
            proposedBy: "system",
          },
          result: { outcome: "handed_off", replaces: refused.id },
        });
      });
    } catch (err) {
      if (!(err instanceof AlreadyReplanned) && !isUniqueViolation(err)) throw err;
    }
    return { kind: "succeeded", providerRef: messageId };
  }
  let outcome: ToolCallOutcome;
  try {
    outcome = await replanToolCall({
      name: payload.tool,
      rawArgs: refused.arguments,
      ctx: { userId: refused.userId, chatId: refused.chatId, now: new Date() },
      id: freshId,
      replaces: refused.id,
      cause: payload.code,
      // In the proposal's transaction: the card exists if and only if its message does. The
      // check inside it settles a race with another attempt that committed meanwhile.
      within: async (o) => {
        if (await messageExists({ id: messageId })) throw new AlreadyReplanned();
        await appendMessages({
          chatId: refused.chatId,
          items: [messageOf(messageId, lang, orderId, o)],
        });
      },
    });
  } catch (err) {
    // Another attempt stored it first (the message's or the action's primary key).
    if (err instanceof AlreadyReplanned || isUniqueViolation(err)) {
      const done = await find(payload, ref);
      if (done.kind === "found") return { kind: "succeeded", providerRef: done.providerRef };
    }
    throw err;
  }
  // The store (or the tool) did not answer: nothing was stored; the relay tries again later.
  if (isTransient(outcome) && outcome.kind === "error")
    return { kind: "indeterminate", code: outcome.code };
  return { kind: "succeeded", providerRef: outcome.kind === "proposal" ? freshId : messageId };
}

class AlreadyReplanned extends Error {}

/** Start-up (lib/startup.ts): the relay's `action.replan` effects are carried out here. */
export function registerReplanner(): void {
  setReplanner({ propose, find });
}
