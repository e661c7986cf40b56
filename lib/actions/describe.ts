/**
 * A stored action, described by its own tool in the chat's language: the confirm card's view, the
 * app's confirmation message and the notes after a decision. Texts are the tool's catalogue
 * entries (messages/<lang>.json, tools.<tool name>.*), read with next-intl's createTranslator,
 * which works outside React.
 */
import type { Lang } from "@/lib/chat/language";
import { formatMoney } from "@/lib/format/money";
import { toolTranslator } from "@/lib/tools/catalogue";
import type { DescribeContext, WriteTool } from "@/lib/tools/types";
import type { ActionDescription } from "@/lib/tools/view";

const LOCALE: Record<Lang, string> = { en: "en-GB", ru: "ru-RU" };

export function describeContext(toolName: string, lang: Lang): DescribeContext {
  const t = toolTranslator(toolName, lang);
  if (!t) throw new Error(`messages/${lang}.json has no texts for tool ${toolName}`);
  const locale = LOCALE[lang];
  const day = new Intl.DateTimeFormat(locale, {
    day: "numeric",
    month: "short",
    year: "numeric",
    // Order dates are calendar days; UTC keeps the server's rendering independent of its zone.
    timeZone: "UTC",
  });
  return {
    lang,
    t,
    money: (amount, currency) => formatMoney(amount, currency, locale),
    date: (iso) => day.format(new Date(iso)),
  };
}

/** describe() of the action's tool. `result` only for an executed action. */
export function describeAction(
  tool: WriteTool,
  action: { arguments: unknown; plan: unknown; result?: unknown },
  lang: Lang,
): ActionDescription {
  return tool.describe(
    {
      args: tool.args.parse(action.arguments),
      plan: tool.planSchema.parse(action.plan),
      result: action.result == null ? null : tool.result.parse(action.result),
    },
    describeContext(tool.name, lang),
  );
}
