/**
 * Sentences the app (not the model) writes into the conversation that belong to no tool: the
 * tool-loop overrun and the model failure, from the catalogue (messages/<lang>.json, `turn`) in
 * the conversation's language. A write tool's confirmation and outcome sentences are its own
 * (describe()). use-intl's core, not next-intl's root entry: this runs under the react-server
 * condition too (npm run eval), where that entry pulls in client hooks.
 */
import { createTranslator } from "use-intl/core";
import { messagesFor } from "@/lib/i18n/messages";
import type { Locale } from "@/lib/text/language";

export function overrunText(lang: Locale): string {
  const t = createTranslator({ locale: lang, messages: messagesFor(lang), namespace: "turn" });
  return t("overrun");
}

export function modelErrorText(lang: Locale): string {
  const t = createTranslator({ locale: lang, messages: messagesFor(lang), namespace: "turn" });
  return t("modelError");
}
