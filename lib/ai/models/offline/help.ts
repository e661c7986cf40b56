/**
 * What the assistant says it can do, built from the registry: every registered tool's own line
 * (its meta.ts's `help`), in registry order, and a person to talk to (the handoff, which is not a
 * tool of the registry). A tool added to the registry is in the help without an edit here.
 */
import { TOOLS } from "@/lib/tools/registry";
import type { Lang } from "./text";

const PERSON: Record<Lang, string> = {
  en: "put you through to a person",
  ru: "позвать оператора",
};
const OR: Record<Lang, string> = { en: "or", ru: "или" };

/** "check the status of your orders, …, or put you through to a person" */
export function whatICanDo(
  lang: Lang,
  tools: readonly { help: Record<Lang, string> }[] = TOOLS,
): string {
  const lines = [...tools.map((t) => t.help[lang]), PERSON[lang]];
  return `${lines.slice(0, -1).join(", ")} ${OR[lang]} ${lines.at(-1)}`;
}
