/**
 * The one language detector. The offline model, the app's own chat messages, the card's view and
 * the chat chrome all ask it, so they never disagree about the same message. Client-safe.
 */
import type { Locale } from "@/db/constants";
import { isTranslitRussian } from "./translit";

/** The one Locale type is db/constants.ts's (the interface languages); a language is one of them. */
export type { Locale };

/**
 * Cyrillic letters outnumbering Latin ones means Russian, and so does Russian typed in Latin
 * letters ("gde moy zakaz?", translit.ts); null when the text has no letters.
 */
export function detectLanguage(text: string): Locale | null {
  const cyrillic = text.match(/\p{Script=Cyrillic}/gu)?.length ?? 0;
  const latin = text.match(/\p{Script=Latin}/gu)?.length ?? 0;
  if (cyrillic === 0 && latin === 0) return null;
  return cyrillic > latin || isTranslitRussian(text) ? "ru" : "en";
}

/** The language to answer a text in: its own, else English. */
export function languageOf(text: string): Locale {
  return detectLanguage(text) ?? "en";
}

/**
 * A conversation's language: that of the customer's latest message with letters ("7718" alone
 * keeps the language of the conversation), else English. `texts` are the customer's messages,
 * oldest first.
 */
export function conversationLanguage(texts: readonly string[]): Locale {
  for (let i = texts.length - 1; i >= 0; i--) {
    const lang = detectLanguage(texts[i]!);
    if (lang) return lang;
  }
  return "en";
}
