/**
 * The tools' rows (lib/tools/<tool>/offline.ts), compiled once: every registered write tool that
 * has rows is understood by the same rules (decide.ts), in registry order, and every read tool
 * that says what it reads is looked up by that. Nothing here names a tool.
 */

import type { OfflineRead, OfflineThread, OfflineWriteRows } from "@/lib/tools/offline-types";
import { TOOLS } from "@/lib/tools/registry";
import type { ReadTool, WriteTool } from "@/lib/tools/types";
import { re } from "./text";

export type ToolCueKind = "request" | "question" | "negation";
/** A tool's cue in an utterance: `<tool name>:request`. */
export type ToolCue = `${string}:${ToolCueKind}`;

export type ToolRows = {
  name: string;
  rows: OfflineWriteRows;
  patterns: Record<ToolCueKind, RegExp[]>;
};

/** A one-message tool: its arguments are read from the request (or the answer to our question). */
export type SingleRows = ToolRows & {
  rows: Extract<OfflineWriteRows, { args: unknown }>;
};
/** A tool whose request is a conversation (see OfflineThread). */
export type ThreadRows = ToolRows & { rows: OfflineWriteRows & { thread: OfflineThread } };

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

export const SINGLE_ROWS: SingleRows[] = TOOL_ROWS.filter(
  (t): t is SingleRows => t.rows.thread === undefined,
);
export const THREAD_ROWS: ThreadRows[] = TOOL_ROWS.filter(
  (t): t is ThreadRows => t.rows.thread !== undefined,
);

export const toolCue = (name: string, kind: ToolCueKind): ToolCue => `${name}:${kind}`;

export function rowsOf(toolName: string): ToolRows | undefined {
  return TOOL_ROWS.find((t) => t.name === toolName);
}

const READERS = new Map<OfflineRead, string>();
const READ_KIND = new Map<string, OfflineRead>();
for (const t of TOOLS) {
  const reads = t.access === "read" ? (t as ReadTool).offline?.reads : undefined;
  if (!reads || READERS.has(reads)) continue;
  READERS.set(reads, t.name);
  READ_KIND.set(t.name, reads);
}

/** The read tool that looks up `kind` (the first registered), or null when none does. */
export const readerOf = (kind: OfflineRead): string | null => READERS.get(kind) ?? null;

/** What a read tool reads, or null for a tool the model does not read with. */
export const readKindOf = (toolName: string): OfflineRead | null => READ_KIND.get(toolName) ?? null;
