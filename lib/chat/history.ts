/**
 * Stored UI messages -> model messages. Data parts the UI renders (the confirm card, a
 * decision's outcome) become short bracketed notes so the model knows what happened. The notes
 * name the tool and its arguments generically; no tool is special here.
 */
import "server-only";
import { convertToModelMessages, type ModelMessage } from "ai";
import type { ChatUIMessage } from "@/lib/api/parts";

/**
 * Only token-like values (ids, enum values, numbers) go into a note: a customer's free-text
 * comment stays out, so it cannot forge an app note.
 */
const TOKEN = /^[A-Za-z0-9_-]{1,40}$/;

function facts(values: Record<string, unknown>): string {
  return Object.entries(values)
    .flatMap(([key, v]) =>
      typeof v === "number" || typeof v === "boolean" || (typeof v === "string" && TOKEN.test(v))
        ? [`${key} ${String(v)}`]
        : [],
    )
    .join(", ");
}

export async function toModelMessages(messages: ChatUIMessage[]): Promise<ModelMessage[]> {
  return convertToModelMessages<ChatUIMessage>(messages, {
    ignoreIncompleteToolCalls: true,
    convertDataPart: (part) => {
      if (part.type === "data-pending-action") {
        const a = part.data;
        return {
          type: "text",
          text: `[App note: a confirmation card for ${a.tool} (${facts(a.arguments)}) was shown to the customer (action ${a.id}, status now: ${a.status}). Only the customer's click decides.]`,
        };
      }
      if (part.type === "data-staff") {
        return {
          type: "text",
          text: "[App note: the next text was written by a person of the support team, not by you.]",
        };
      }
      if (part.type === "data-handoff") {
        return {
          type: "text",
          text:
            part.data.status === "waiting"
              ? "[App note: the customer asked for a person; the chat was handed to the support team.]"
              : "[App note: the support team handed the chat back to you.]",
        };
      }
      if (part.type === "data-action-outcome") {
        const o = part.data;
        const result = o.result ? ` ${facts(o.result)}` : "";
        return {
          type: "text",
          text: `[App note: action ${o.actionId} is now ${o.status}.${result}]`,
        };
      }
      return undefined;
    },
  });
}
