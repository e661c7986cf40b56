/**
 * What every tool folder's meta.ts declares: pure data, no server modules, so the message
 * catalogues, the triage schema and the browser can read it (lib/tools/manifests.ts).
 * - `texts`, per language: a `note` (the quiet line the chat shows while and after the tool runs:
 *   `running`, `done`, `refused`, `failed`, each given `order` and `hasOrder`), and for a write tool
 *   `triageCategory` (the category's label on the audit page) and whatever its describe() reads
 *   with t("…").
 * - `help`, per language: what the tool lets the assistant do, as the words after "I can"
 *   ("cancel an order that hasn't shipped"); the assistant's help lists every registered tool's.
 * - `triage` (write tools): the staff triage category of a chat in which the tool acted, and a
 *   few words on what it means for the triage model's instructions.
 */
import type { Locale as Lang } from "@/db/constants";

/** `done`: answered (a read) or proposed (a write); `refused`: the policy or store said no. */
export type ToolNoteTexts = { running: string; done: string; refused: string; failed: string };

export type ToolMeta = {
  name: string;
  help: Record<Lang, string>;
  triage?: { category: string; hint: string };
  texts: Record<Lang, { note: ToolNoteTexts; triageCategory?: string } & Record<string, unknown>>;
};
