/**
 * Propose: a write tool's validated arguments become a pending action the customer can confirm.
 * plan() reads and decides; only an allowed plan is stored, together with everything confirm
 * will check: the normalized arguments, their hash, the plan and the target's version.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { chatBelongsToUser, insertPendingAction, listPendingForUser } from "@/db/queries/actions";
import { writeTransaction } from "@/db/queries/tx";
import { recordAudit } from "@/lib/audit-log/record";
import { env } from "@/lib/env";
import type { Planned, ToolContext, WriteResult, WriteTool } from "@/lib/tools/types";
import { requiresApproval } from "./approval";
import { type PendingActionDto, toPendingActionDto } from "./dto";
import { payloadHash } from "./hash";
import { transition } from "./transition";

export type ProposeMeta = {
  toolCallId?: string | null;
  promptVersion?: string | null;
  model?: string | null;
  profile?: string | null;
  /** When the tool call started, for the audit duration (performance.now()). */
  startedAt: number;
  /**
   * The new action's id, when the caller derives it instead of a random one: a plan the system
   * makes again (replanToolCall) is stored at most once, whichever attempt stores it.
   */
  id?: string;
};

/**
 * The tool's answer when its business key already has an effect (no card then; the answer says
 * createdNow: false), or null.
 */
export async function existingEffect(
  tool: WriteTool,
  args: unknown,
  ctx: ToolContext,
): Promise<WriteResult | null> {
  const found = await tool.findExisting(args, ctx);
  return found ? tool.result.parse(found) : null;
}

/**
 * Stores what plan() decided. Outside the executor's timeout on purpose: the timeout covers plan()
 * only, and storing starts only once plan() answered in time, so a slow plan can never store an
 * action after the model was told the call timed out.
 */
export async function storeProposal(
  tool: WriteTool,
  args: unknown,
  planned: Planned<unknown>,
  ctx: ToolContext,
  meta: ProposeMeta,
): Promise<PendingActionDto> {
  const plan = tool.planSchema.parse(planned.plan);
  const { target } = planned;
  const now = ctx.now;

  const row = await writeTransaction(async () => {
    if (!(await chatBelongsToUser({ chatId: ctx.chatId, userId: ctx.userId }))) {
      throw new Error("propose: chat does not belong to the user");
    }
    // One pending action per chat, one per target: the newest proposal wins.
    for (const old of await listPendingForUser({
      userId: ctx.userId,
      chatId: ctx.chatId,
      targetId: target.id,
    })) {
      await transition(old, { from: "pending", to: "superseded", now, decidedBy: "system" });
    }
    const inserted = await insertPendingAction({
      id: meta.id ?? randomUUID(),
      chatId: ctx.chatId,
      userId: ctx.userId,
      tool: tool.name,
      toolCallId: meta.toolCallId ?? null,
      arguments: args,
      payloadHash: payloadHash({ tool: tool.name, userId: ctx.userId, arguments: args }),
      plan,
      targetType: target.type,
      targetId: target.id,
      targetVersion: target.version,
      status: "pending",
      requiresApproval: requiresApproval(plan),
      promptVersion: meta.promptVersion ?? null,
      model: meta.model ?? null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + env().PENDING_ACTION_TTL_SECONDS * 1000),
    });
    await recordAudit({
      at: now,
      tool: tool.name,
      access: "write",
      status: "confirmation_required",
      // As in the source course: the call stopped at the customer's confirmation.
      errorCode: "confirmation_required",
      userId: ctx.userId,
      chatId: ctx.chatId,
      actionId: inserted.id,
      toolCallId: inserted.toolCallId,
      durationMs: performance.now() - meta.startedAt,
      arguments: args,
      result: plan,
      promptVersion: inserted.promptVersion,
      model: inserted.model,
      profile: meta.profile ?? null,
    });
    return inserted;
  });
  return toPendingActionDto(row);
}
