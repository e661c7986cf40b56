/**
 * The message catalogues (messages/*.json), one per locale. English is the reference: its shape
 * types every key (lib/i18n/app-config.d.ts), and tests/unit/i18n-catalogues.test.ts fails when
 * the other catalogue misses a key, has an extra one, or a key is used nowhere.
 */
import en from "@/messages/en.json";
import ru from "@/messages/ru.json";
import type { Locale } from "./locales";

export type Messages = typeof en;

const CATALOGUES: Record<Locale, Messages> = { en, ru };

export function messagesFor(locale: Locale): Messages {
  return CATALOGUES[locale];
}

/** What the conversation needs in both languages (components/chat/conversation-language.tsx). */
export type ConversationMessages = Pick<Messages, "conversation">;

export function conversationMessages(): Record<Locale, ConversationMessages> {
  return {
    en: { conversation: en.conversation },
    ru: { conversation: ru.conversation },
  };
}

/** The conversation's texts in one language, for code outside React (the terminal chat, tests). */
export function conversationText(locale: Locale): {
  locale: Locale;
  messages: ConversationMessages;
} {
  return { locale, messages: { conversation: CATALOGUES[locale].conversation } };
}

/**
 * Server and browser must format dates in the same zone or hydration sees two texts. Order
 * dates are calendar days and audit times are compared with logs, so both are UTC; a component
 * that wants the reader's zone (components/confirm-card/countdown.tsx) passes it after hydration.
 */
export const TIME_ZONE = "UTC";
