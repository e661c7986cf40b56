/**
 * Stored UI messages -> model messages. Data parts the UI renders (the confirm card, a
 * decision's outcome) become short bracketed notes so the model knows what happened.
 */
import "server-only";
import { convertToModelMessages, type ModelMessage } from "ai";
import type { ChatUIMessage } from "@/lib/chat/types";

export async function toModelMessages(messages: ChatUIMessage[]): Promise<ModelMessage[]> {
  return convertToModelMessages<ChatUIMessage>(messages, {
    ignoreIncompleteToolCalls: true,
    convertDataPart: (part) => {
      if (part.type === "data-pending-action") {
        const a = part.data;
        return {
          type: "text",
          // Only fields the server controls: the customer's free-text comment stays out, so it
          // cannot forge an app note.
          text: `[App note: a confirmation card for ${a.tool} (order ${a.arguments.orderId}, reason ${a.arguments.reason}) was shown to the customer (action ${a.id}, status now: ${a.status}). Only the customer's click decides.]`,
        };
      }
      if (part.type === "data-action-outcome") {
        const o = part.data;
        const req = o.result
          ? ` request ${o.result.requestId}, createdNow=${o.result.createdNow}`
          : "";
        return { type: "text", text: `[App note: action ${o.actionId} is now ${o.status}.${req}]` };
      }
      return undefined;
    },
  });
}
