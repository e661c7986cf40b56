/**
 * The PendingAction of docs/api.md, built from a stored row. Stored JSON is parsed with the tool's own
 * schemas (never trusted as-is), times become ISO strings.
 */
import type { ActionRow } from "@/db/queries/actions";
import type { ActionStatus } from "@/db/schema";
import {
  type CreateReturnArgs,
  createReturnRequest,
  type ReturnPlan,
} from "@/lib/tools/create-return-request";
import { getTool } from "@/lib/tools/registry";
import type { WriteTool } from "@/lib/tools/types";

export type PendingActionStatus = ActionStatus;

/** One write tool today; with a second one this becomes a union discriminated by `tool`. */
export type PendingActionDto = {
  id: string;
  chatId: string;
  tool: typeof createReturnRequest.name;
  arguments: CreateReturnArgs;
  plan: ReturnPlan;
  status: PendingActionStatus;
  createdAt: string;
  expiresAt: string;
  decidedAt: string | null;
};

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
  if (row.tool !== createReturnRequest.name) writeToolOf(row);
  return {
    id: row.id,
    chatId: row.chatId,
    tool: createReturnRequest.name,
    arguments: createReturnRequest.args.parse(row.arguments),
    plan: createReturnRequest.planSchema.parse(row.plan),
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    decidedAt: row.decidedAt ? row.decidedAt.toISOString() : null,
  };
}
