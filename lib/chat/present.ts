/**
 * An action as the customer sees it: the core's PendingAction plus its tool's description in the
 * chat's language. Everything the browser shows about an action passes through here, so the card
 * never needs to know which tool it renders.
 */
import "server-only";
import { lastUserMessage } from "@/db/queries/chats";
import { describeAction } from "@/lib/actions/describe";
import type { PendingActionDto } from "@/lib/actions/dto";
import { writeToolOf } from "@/lib/actions/dto";
import type { PendingActionPart } from "@/lib/api/parts";
import { detectLanguage, type Locale } from "@/lib/text/language";
import { type ActionDescription, type EffectState, effectsSettled } from "@/lib/tools/view";

export function actionDescription(
  action: PendingActionDto,
  lang: Locale,
  effects: readonly EffectState[] = [],
): ActionDescription {
  return describeAction(writeToolOf({ tool: action.tool, id: action.id }), action, lang, effects);
}

/**
 * `effects`: the action's effects outside our database with their status (a cancellation's
 * refund), which the outcome note reports; `outcome.settled` is false while one is under way.
 */
export function presentAction(
  action: PendingActionDto,
  lang: Locale,
  effects: readonly EffectState[] = [],
): PendingActionPart {
  const {
    confirmation: _c,
    notes: _n,
    outcome,
    ...view
  } = actionDescription(action, lang, effects);
  return {
    ...action,
    view: { ...view, outcome: outcome && { ...outcome, settled: effectsSettled(effects) } },
  };
}

/**
 * The chat's language as the server can tell it: the customer's latest message with letters
 * among the newest ones stored, else English. The same detector as everywhere else.
 */
export async function storedChatLanguage(chatId: string): Promise<Locale> {
  const last = await lastUserMessage({ chatId });
  const parts = Array.isArray(last?.parts) ? (last.parts as unknown[]) : [];
  const text = parts
    .map((p) =>
      typeof p === "object" && p !== null && "text" in p && typeof p.text === "string"
        ? p.text
        : "",
    )
    .join(" ");
  return detectLanguage(text) ?? "en";
}
