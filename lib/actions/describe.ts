/**
 * A stored action, described by its own tool in the chat's language: the confirm card's view, the
 * app's confirmation message and the notes after a decision. Texts are the tool's catalogue
 * entries (messages/<lang>.json, tools.<tool name>.*), read with next-intl's createTranslator,
 * which works outside React.
 */
import { createFormatter } from "use-intl/core";
import { formats } from "@/lib/i18n/formats";
import type { Locale } from "@/lib/text/language";
import { toolTranslator } from "@/lib/tools/catalogue";
import type { DescribeContext, WriteTool } from "@/lib/tools/types";
import type { ActionDescription, EffectState } from "@/lib/tools/view";

/**
 * One formatter per language for the process: it keeps the Intl objects it builds, which a new
 * formatter per card built again (docs/benchmarks.md).
 */
const formatters = new Map<Locale, ReturnType<typeof createFormatter>>();

export function describeContext(toolName: string, lang: Locale): DescribeContext {
  const t = toolTranslator(toolName, lang);
  if (!t) throw new Error(`messages/${lang}.json has no texts for tool ${toolName}`);
  // The app's formatter and named formats (the same "day" as the orders page). Order dates are
  // calendar days; UTC keeps the server's rendering independent of its zone.
  let format = formatters.get(lang);
  if (!format) {
    format = createFormatter({ locale: lang, timeZone: "UTC", formats });
    formatters.set(lang, format);
  }
  return {
    lang,
    t,
    money: (minor, currency) => format.number(minor / 100, { style: "currency", currency }),
    date: (iso) => format.dateTime(new Date(iso), "day"),
  };
}

/**
 * describe() of the action's tool. `result` only for an executed action; `effects` are its
 * effects outside our database (a refund) with their current status, none by default.
 */
export function describeAction(
  tool: WriteTool,
  action: { arguments: unknown; plan: unknown; result?: unknown },
  lang: Locale,
  effects: readonly EffectState[] = [],
): ActionDescription {
  return tool.describe(
    {
      args: tool.args.parse(action.arguments),
      plan: tool.planSchema.parse(action.plan),
      result: action.result == null ? null : tool.result.parse(action.result),
      effects,
    },
    describeContext(tool.name, lang),
  );
}
