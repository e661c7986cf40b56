/**
 * The PendingAction of docs/api.md, built from a stored row. Its type is derived from the registry: one
 * variant per registered write tool, with that tool's arguments, plan and result. Stored JSON is
 * parsed with the tool's own schemas (never trusted as-is), times become ISO strings.
 */
import type { z } from "zod";
import type { ActionRow } from "@/db/queries/actions";
import type { ActionStatus } from "@/db/schema";
import { getTool, type TOOLS } from "@/lib/tools/registry";
import type { WriteTool } from "@/lib/tools/types";

export type PendingActionStatus = ActionStatus;

type RegisteredWriteTool = Extract<(typeof TOOLS)[number], { access: "write" }>;

type VariantOf<T> = T extends {
  name: infer Name;
  args: infer Args extends z.ZodType;
  planSchema: infer Plan extends z.ZodType;
  result: infer Result extends z.ZodType;
}
  ? {
      tool: Name;
      arguments: z.output<Args>;
      plan: z.output<Plan>;
      /** What the write returned, once executed; null before. */
      result: z.output<Result> | null;
    }
  : never;

export type PendingActionDto = {
  id: string;
  chatId: string;
  status: PendingActionStatus;
  createdAt: string;
  expiresAt: string;
  decidedAt: string | null;
  /** Confirming only hands it to staff: it then waits in awaiting_approval. */
  requiresApproval: boolean;
  /** How many times the customer edited this proposal's chain (0: as the assistant proposed). */
  revision: number;
  /** The action this one replaced by a revision, or null. */
  revisionOf: string | null;
  /** When the customer confirmed it (for one that needed approval), or null. */
  confirmedAt: string | null;
  /** Why staff rejected it, or null. */
  rejectReason: string | null;
} & VariantOf<RegisteredWriteTool>;

/** The registered write tool a stored action names; a row naming anything else is corrupt. */
export function writeToolOf(row: Pick<ActionRow, "tool" | "id">): WriteTool {
  const tool = getTool(row.tool);
  if (tool?.access !== "write") {
    throw new Error(
      `pending action ${row.id} names ${row.tool}, which is not a registered write tool`,
    );
  }
  return tool;
}

export function toPendingActionDto(row: ActionRow): PendingActionDto {
  const tool = writeToolOf(row);
  return {
    id: row.id,
    chatId: row.chatId,
    tool: tool.name,
    arguments: tool.args.parse(row.arguments),
    plan: tool.planSchema.parse(row.plan),
    result: row.status === "executed" && row.result != null ? tool.result.parse(row.result) : null,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    decidedAt: row.decidedAt ? row.decidedAt.toISOString() : null,
    requiresApproval: row.requiresApproval,
    revision: row.revision,
    revisionOf: row.revisionOf,
    confirmedAt: row.confirmedAt ? row.confirmedAt.toISOString() : null,
    rejectReason: row.rejectReason,
    // Parsed by the schemas of the tool the row names, so the variant matches.
  } as PendingActionDto;
}
