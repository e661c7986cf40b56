/**
 * The customer's decision on a pending action, and its note in the chat history so the next
 * model turn (and the UI after a reload) know what happened.
 */
import "server-only";
import type { ActionOutcomeStatus } from "@/db/constants";
import { cancelAction, confirmAction, getActionForUser } from "@/lib/actions";
import type { PendingActionPart } from "@/lib/api/parts";
import type { DecisionAudit } from "@/lib/api/schemas";
import { decisionAudit } from "@/lib/audit/decision";
import { AppError } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";
import { inSpanAsync } from "@/lib/telemetry/tracer";
import type { WriteResult } from "@/lib/tools/types";
import { presentAction, storedChatLanguage } from "./present";
import { recordOutcome } from "./service";

/** Decisions that end an action for a reason other than the click: still worth a note. */
const NOTED_ERRORS = new Set(["expired", "stale", "superseded"]);

/** A decision's answer also names the audit status it left (docs/api.md extension, see README). */
type WithAudit<T> = T & { audit: DecisionAudit | null };

export async function confirm({ actionId, userId }: { actionId: string; userId: string }): Promise<
  WithAudit<{
    action: PendingActionPart;
    /** Null when the action now waits for staff approval (nothing was executed). */
    result: WriteResult | null;
  }>
> {
  try {
    // The confirm transaction, traced: the action's id and how it ended, nothing it carries.
    const out = await inSpanAsync(
      "action.confirm",
      { "returns_desk.action.id": actionId },
      async (span) => {
        const done = await confirmAction({ actionId, userId });
        span?.setAttributes({
          "returns_desk.action.status": done.action.status,
          "returns_desk.action.tool": done.action.tool,
          "returns_desk.action.created_now": done.result?.createdNow ?? false,
        });
        return done;
      },
    );
    await noteQuietly(
      async () =>
        await recordOutcome({
          action: out.action,
          outcome: out.result
            ? { actionId, status: "executed", result: out.result }
            : // Above the threshold: the chat is free again and says our team decides next.
              { actionId, status: "awaiting_approval" },
        }),
    );
    return {
      // Described as the transaction committed it: its effects pending (the note says
      // "processing"); the client follows them through GET /api/actions/{id}.
      action: presentAction(out.action, await storedChatLanguage(out.action.chatId), out.effects),
      result: out.result,
      audit: await decisionAudit({ actionId }),
    };
  } catch (err) {
    await noteFailure(err, actionId, userId);
    throw err;
  }
}

export async function cancel({ actionId, userId }: { actionId: string; userId: string }) {
  try {
    const out = await cancelAction({ actionId, userId });
    await noteQuietly(
      async () =>
        await recordOutcome({ action: out.action, outcome: { actionId, status: "cancelled" } }),
    );
    return {
      action: presentAction(out.action, await storedChatLanguage(out.action.chatId)),
      audit: await decisionAudit({ actionId }),
    };
  } catch (err) {
    await noteFailure(err, actionId, userId);
    throw err;
  }
}

/**
 * The decision is already committed; the note in the history is secondary. Failing to write it
 * must not turn a created return into an error for the customer.
 */
async function noteQuietly(write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (err) {
    log().error({ err: errorFields(err) }, "could not note the decision in the chat");
  }
}

async function noteFailure(err: unknown, actionId: string, userId: string): Promise<void> {
  if (!(err instanceof AppError)) return;
  const action = await getActionForUser({ actionId, userId });
  if (!action) return;
  const status = action.status as ActionOutcomeStatus;
  if (NOTED_ERRORS.has(err.code) || (err.code === "internal_error" && status === "failed")) {
    await noteQuietly(async () => await recordOutcome({ action, outcome: { actionId, status } }));
  }
}
