/**
 * A tool's catalogue text: messages/<lang>.json under tools.<tool name>, read with use-intl's
 * createTranslator (the core under next-intl: works on the server, in the browser and under the
 * react-server condition that npm run eval runs with, where next-intl's root imports client hooks).
 */
import { createTranslator } from "use-intl/core";
import type { Locale } from "@/lib/text/language";
import en from "@/messages/en.json";
import ru from "@/messages/ru.json";
import type { Translate } from "./types";

const CATALOGUES: Record<Locale, { tools: Record<string, unknown> }> = { en, ru };

/**
 * One translator per tool and language for the process: a translator keeps the messages it has
 * parsed and the Intl formatters it built, which a fresh one per card or note parsed again.
 */
const translators = new Map<string, Translate>();

/** The tool's translator in `lang`, or null when the catalogue has no texts for that tool. */
export function toolTranslator(toolName: string, lang: Locale): Translate | null {
  const messages = CATALOGUES[lang];
  if (!Object.hasOwn(messages.tools, toolName)) return null;
  const key = `${lang}:${toolName}`;
  let t = translators.get(key);
  if (!t) {
    // The namespace is computed, so next-intl's key typing cannot follow it; the tool module's own
    // t("…") calls are checked against tools.<its name> by tests/unit/i18n-catalogues.test.ts.
    t = createTranslator({
      locale: lang,
      messages: messages as never,
      namespace: `tools.${toolName}` as never,
    }) as unknown as Translate;
    translators.set(key, t);
  }
  return t;
}
