/**
 * A tool's catalogue text: its folder's <lang>.json (lib/tools/manifests.ts), read with use-intl's
 * createTranslator (the core under next-intl: works on the server, in the browser and under the
 * react-server condition that npm run eval runs with, where next-intl's root imports client hooks).
 */
import { createTranslator } from "use-intl/core";
import { own } from "@/lib/own";
import type { Locale } from "@/lib/text/language";
import { TOOL_METAS } from "./manifests";
import type { Translate } from "./types";

/**
 * One translator per tool and language for the process: a translator keeps the messages it has
 * parsed and the Intl formatters it built, which a fresh one per card or note parsed again.
 */
const translators = new Map<string, Translate>();

const TEXTS: Record<string, Record<Locale, unknown>> = Object.fromEntries(
  TOOL_METAS.map((m) => [m.name, m.texts]),
);

/** The tool's translator in `lang`, or null when no texts are listed for that tool. */
export function toolTranslator(toolName: string, lang: Locale): Translate | null {
  const texts = own(TEXTS, toolName);
  if (!texts) return null;
  const key = `${lang}:${toolName}`;
  let t = translators.get(key);
  if (!t) {
    // The namespace is computed, so next-intl's key typing cannot follow it; the tool module's own
    // t("…") calls are checked against its texts by tests/unit/i18n-catalogues.test.ts.
    t = createTranslator({
      locale: lang,
      messages: { tools: { [toolName]: texts[lang] } } as never,
      namespace: `tools.${toolName}` as never,
    }) as unknown as Translate;
    // Stryker disable next-line CallExpression: without the entry the next call builds an equal translator again
    translators.set(key, t);
  }
  return t;
}
