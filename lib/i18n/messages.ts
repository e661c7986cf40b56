/**
 * The message catalogues (messages/*.json), one per locale, plus each tool's own texts (its
 * folder's en.json and ru.json, listed in lib/tools/manifests.ts) under tools.<name>. The texts
 * that speak of every tool are built here from the tools' own: the chat's tool line
 * (conversation.toolNote, from each `note`) and the triage category's label
 * (audit.triage.categories, from each write tool's `triageCategory`), so no catalogue lists tools. English is the reference: its shape types every key
 * (lib/i18n/app-config.d.ts), and tests/unit/i18n-catalogues.test.ts fails when the other
 * catalogue misses a key, has an extra one, or a key is used nowhere.
 */
import { TOOL_METAS } from "@/lib/tools/manifests";
import type { ToolNoteTexts } from "@/lib/tools/meta-types";
import enBase from "@/messages/en.json";
import ruBase from "@/messages/ru.json";
import type { Locale } from "./locales";

type Base = typeof enBase;
type Meta = (typeof TOOL_METAS)[number];
export type Messages = Base & {
  tools: { [M in Meta as M["name"]]: M["texts"]["en"] };
  conversation: Base["conversation"] & { toolNote: ToolNoteTexts };
};

/** One ICU select over the tools' own note texts: a tool it does not know gets an empty line. */
function toolNote(locale: Locale): ToolNoteTexts {
  const select = (kind: keyof ToolNoteTexts) =>
    `{tool, select, ${TOOL_METAS.map((m) => `${m.name} {${m.texts[locale].note[kind]}}`).join(" ")} other {}}`;
  return {
    running: select("running"),
    done: select("done"),
    refused: select("refused"),
    failed: select("failed"),
  };
}

/** The tools' triage categories go first into the audit page's select of category labels. */
function withToolCategories(select: string, locale: Locale): string {
  const options = TOOL_METAS.flatMap((m) =>
    "triage" in m ? [`${m.triage.category} {${m.texts[locale].triageCategory}}`] : [],
  );
  return select.replace("{category, select, ", `{category, select, ${options.join(" ")} `);
}

function catalogue(base: Base, locale: Locale): Messages {
  const tools = Object.fromEntries(
    TOOL_METAS.map((m) => [m.name, m.texts[locale]]),
  ) as Messages["tools"];
  const { triage } = base.audit;
  return {
    ...base,
    tools,
    audit: {
      ...base.audit,
      triage: { ...triage, categories: withToolCategories(triage.categories, locale) },
    },
    conversation: { ...base.conversation, toolNote: toolNote(locale) },
  };
}

const CATALOGUES: Record<Locale, Messages> = {
  en: catalogue(enBase, "en"),
  ru: catalogue(ruBase as Base, "ru"),
};
const en = CATALOGUES.en;
const ru = CATALOGUES.ru;

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
