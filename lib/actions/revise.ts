/**
 * Revise: the customer edits a pending proposal before confirming it. Only the fields
 * the tool declares editable may change (never the order); the result is validated by the tool's
 * own schema and goes through plan() and the policy again, exactly like a proposal from the
 * model, and is stored as a NEW pending action with its own payload hash. The old one ends
 * `superseded`, audited with the reason "revised", in the same transaction. The model has no way
 * here: this is reached only from the customer's session (POST /api/actions/{id}/revise).
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { getActionForUser as getActionRowForUser, insertPendingAction } from "@/db/queries/actions";
import { writeTransaction } from "@/db/queries/tx";
import { recordAudit } from "@/lib/audit-log/record";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { withoutNul } from "@/lib/text/nul";
import { ToolBusinessError } from "@/lib/tools/types";
import { requiresApproval } from "./approval";
import { type PendingActionDto, toPendingActionDto, writeToolOf } from "./dto";
import { payloadHash } from "./hash";
import { explainUndecidable } from "./refusals";
import { expireIfDue, transition } from "./transition";

/** A chain (the proposal and its edits) allows at most this many revisions. */
export const MAX_REVISIONS = 5;

/** The body's `args`: a plain object of changes (which keys are allowed depends on the tool). */
export const RevisionArgsSchema = z.record(z.string(), z.unknown());

export async function reviseAction({
  actionId,
  userId,
  changes,
  now = new Date(),
}: {
  actionId: string;
  userId: string;
  changes: Record<string, unknown>;
  now?: Date;
}): Promise<{ action: PendingActionDto; previous: PendingActionDto }> {
  const found = await getActionRowForUser({ id: actionId, userId });
  // Someone else's action answers exactly like a missing one.
  if (!found) throw new AppError("not_found", "No such action.");
  const row = await expireIfDue(found, now);
  if (row.status !== "pending") throw await explainUndecidable({ actionId, userId, now });
  const tool = writeToolOf(row);

  const refused = Object.keys(changes).filter((k) => !tool.editable.includes(k));
  if (refused.length > 0 || Object.keys(changes).length === 0) {
    throw new AppError(
      "invalid_request",
      refused.length > 0
        ? `These fields cannot be changed: ${refused.join(", ")}.`
        : "Nothing to change: args names no field.",
      { details: { editable: tool.editable } },
    );
  }
  // The same normalisation as a model's arguments (executor.ts): NUL out of everything, then the
  // tool's own schema, whose free-text fields strip controls, bidi and zero-width characters.
  const parsed = tool.args.safeParse(withoutNul({ ...(row.arguments as object), ...changes }));
  if (!parsed.success) {
    throw new AppError("invalid_request", "The changed arguments are not valid.", {
      details: {
        issues: parsed.error.issues.map((i) => ({
          path: i.path.map(String).join("."),
          message: i.message,
        })),
      },
    });
  }
  if (row.revision >= MAX_REVISIONS) {
    throw new AppError(
      "revision_limit",
      `A proposal can be edited at most ${MAX_REVISIONS} times; ask the assistant again.`,
      { details: { revisions: row.revision } },
    );
  }
  const args = parsed.data;
  const ctx = { userId, chatId: row.chatId, now };
  // The policy again, on current state: an edit can never get past what a proposal could not.
  let planned: Awaited<ReturnType<typeof tool.plan>>;
  try {
    planned = await tool.plan(args, ctx);
  } catch (err) {
    if (err instanceof ToolBusinessError)
      throw new AppError("conflict", err.message, { details: { reason: err.code } });
    throw err;
  }
  const plan = tool.planSchema.parse(planned.plan);
  const { target } = planned;

  const outcome = await writeTransaction(async () => {
    // Conditional: a confirm, cancel, expiry or another revision that got there first wins.
    const old = await transition(row, {
      from: "pending",
      to: "superseded",
      now,
      decidedBy: userId,
      errorCode: "revised",
      onlyIfLive: true,
    });
    if (!old) return await explainUndecidable({ actionId, userId, now });
    const inserted = await insertPendingAction({
      id: randomUUID(),
      chatId: row.chatId,
      userId,
      tool: tool.name,
      toolCallId: row.toolCallId,
      arguments: args,
      payloadHash: payloadHash({ tool: tool.name, userId, arguments: args }),
      plan,
      targetType: target.type,
      targetId: target.id,
      targetVersion: target.version,
      status: "pending",
      requiresApproval: requiresApproval(plan),
      revisionOf: row.id,
      revision: row.revision + 1,
      promptVersion: row.promptVersion,
      model: row.model,
      createdAt: now,
      expiresAt: new Date(now.getTime() + env().PENDING_ACTION_TTL_SECONDS * 1000),
    });
    await recordAudit({
      at: now,
      tool: tool.name,
      access: "write",
      status: "confirmation_required",
      // The new proposal of a revision; its chain is in revisedFrom.
      errorCode: "revised",
      userId,
      chatId: row.chatId,
      actionId: inserted.id,
      toolCallId: inserted.toolCallId,
      arguments: args,
      result: { ...(plan as object), revisedFrom: row.id, revision: inserted.revision },
      promptVersion: inserted.promptVersion,
      model: inserted.model,
    });
    return { action: toPendingActionDto(inserted), previous: toPendingActionDto(old) };
  });
  if (outcome instanceof AppError) throw outcome;
  return outcome;
}
