/**
 * A tool's catalogue text: messages/<lang>.json under tools.<tool name>, read with next-intl's
 * createTranslator (works on the server and in the browser, outside React). Client-safe.
 */
import { createTranslator } from "next-intl";
import type { Lang } from "@/lib/chat/language";
import en from "@/messages/en.json";
import ru from "@/messages/ru.json";
import type { Translate } from "./types";

const CATALOGUES: Record<Lang, { tools: Record<string, unknown> }> = { en, ru };

/** The tool's translator in `lang`, or null when the catalogue has no texts for that tool. */
export function toolTranslator(toolName: string, lang: Lang): Translate | null {
  const messages = CATALOGUES[lang];
  if (!Object.hasOwn(messages.tools, toolName)) return null;
  // The namespace is computed, so next-intl's key typing cannot follow it; the catalogue test
  // checks that every tool has the same keys in both languages.
  const t = createTranslator({
    locale: lang,
    messages: messages as never,
    namespace: `tools.${toolName}` as never,
  }) as unknown as {
    (key: string, values?: Record<string, string | number>): string;
    has(key: string): boolean;
  };
  return Object.assign((key: string, values?: Record<string, string | number>) => t(key, values), {
    has: (key: string) => t.has(key),
  });
}
