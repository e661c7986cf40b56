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
  // The namespace is computed, so next-intl's key typing cannot follow it; the tool module's own
  // t("…") calls are checked against tools.<its name> by tests/unit/i18n-catalogues.test.ts.
  return createTranslator({
    locale: lang,
    messages: messages as never,
    namespace: `tools.${toolName}` as never,
  }) as unknown as Translate;
}
