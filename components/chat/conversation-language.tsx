"use client";
import { NextIntlClientProvider, useTimeZone } from "next-intl";
import type { ReactNode } from "react";
import { formats } from "@/lib/i18n/formats";
import type { Locale } from "@/lib/i18n/locales";
import type { ConversationMessages } from "@/lib/i18n/messages";

/**
 * The conversation speaks the chat's language: the customer's latest message decides, as it does
 * for the assistant's answers, so a Russian chat keeps Russian cards, notes and errors under an
 * English interface (and the other way round). Both languages' conversation texts come with the
 * page, because the language can change with the next message.
 */
export function ConversationLanguage({
  lang,
  messages,
  children,
}: {
  lang: Locale;
  messages: Record<Locale, ConversationMessages>;
  children: ReactNode;
}) {
  const timeZone = useTimeZone();
  return (
    <NextIntlClientProvider
      locale={lang}
      messages={messages[lang]}
      timeZone={timeZone}
      formats={formats}
    >
      {children}
    </NextIntlClientProvider>
  );
}
