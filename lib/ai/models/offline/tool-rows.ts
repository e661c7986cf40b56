/**
 * The write tools' rows (lib/tools/<tool>/offline.ts), compiled once: every registered write tool
 * that has rows is understood by the same rules (decide.ts), in registry order. Nothing here names
 * a tool.
 */

import type { OfflineWriteRows } from "@/lib/tools/offline-types";
import { TOOLS } from "@/lib/tools/registry";
import type { WriteTool } from "@/lib/tools/types";
import { re } from "./text";

export type ToolCueKind = "request" | "question" | "negation";
/** A tool's cue in an utterance: `cancel_order:request`. */
export type ToolCue = `${string}:${ToolCueKind}`;

export type ToolRows = {
  name: string;
  rows: OfflineWriteRows;
  patterns: Record<ToolCueKind, RegExp[]>;
};

const compile = (byLang: Record<string, string[]>) =>
  Object.values(byLang)
    .flat()
    .map((s) => re(s));

export const TOOL_ROWS: ToolRows[] = TOOLS.flatMap((t) => {
  const rows = t.access === "write" ? (t as WriteTool).offline : undefined;
  if (!rows) return [];
  return [
    {
      name: t.name,
      rows,
      patterns: {
        request: compile(rows.lexicon.request),
        question: compile(rows.lexicon.question),
        negation: compile(rows.lexicon.negation),
      },
    },
  ];
});

export const toolCue = (name: string, kind: ToolCueKind): ToolCue => `${name}:${kind}`;

export function rowsOf(toolName: string): ToolRows | undefined {
  return TOOL_ROWS.find((t) => t.name === toolName);
}
