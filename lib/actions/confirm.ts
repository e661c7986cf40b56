/**
 * Confirm: the only way a write happens. Takes an action id and the signed-in user, nothing else,
 * and executes the stored arguments in one write transaction (BEGIN IMMEDIATE on SQLite):
 * claim (pending -> executing, conditional) -> re-verify the payload hash -> the tool's business
 * key (an effect that already exists answers with createdNow: false) -> the tool's commit
 * (version compare-and-set, write) -> its external effects into the outbox -> executed + audit
 * `success`. The provider is called later, by the relay (lib/effects/relay.ts).
 * Because claim and effect commit together, `executing` is never visible to other connections;
 * a crash or a throw leaves the action `pending` with no effect, and we then mark it `failed`.
 *
 * Four eyes: an action stored with requiresApproval does not run on the customer's
 * confirm; it moves to `awaiting_approval` (audited) and nothing else happens. A staff member's
 * approval (lib/actions/approve.ts) then runs this same path, claiming from awaiting_approval
 * instead of pending: the same stored arguments, hash check, compare-and-set and audit.
 */
import "server-only";
import {
  type ActionRow,
  claimPendingAction,
  getActionById,
  getActionForUser as getActionRowForUser,
} from "@/db/queries/actions";
import { isBusy, writeTransaction } from "@/db/queries/tx";
import { deferConfirmationMail, type EffectKind } from "@/lib/effects/kinds";
import { mailAfterConfirm } from "@/lib/effects/mail/compose";
import { enqueueEffects } from "@/lib/effects/outbox";
import { wakeRelay } from "@/lib/effects/signal";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";
import type { WriteResult } from "@/lib/tools/types";
import { type PendingActionDto, toPendingActionDto, writeToolOf } from "./dto";
import { payloadHash } from "./hash";
import { explainUndecidable } from "./refusals";
import { transition } from "./transition";

export type ConfirmResult = {
  action: PendingActionDto;
  /** Null when the action now awaits staff approval (nothing was executed). */
  result: WriteResult | null;
  /** The effects this confirm stored, as it committed them (all `pending`; the relay is next). */
  effects: { kind: EffectKind; status: "pending" }[];
};

/**
 * Who decides: the customer (their own pending action) or a staff member approving an action
 * that awaits approval (anyone's). A staff member never confirms, a customer never approves.
 */
export type Decider = { kind: "customer"; userId: string } | { kind: "staff"; staffId: string };

const deciderId = (d: Decider) => (d.kind === "customer" ? d.userId : d.staffId);
const claimFrom = (d: Decider) => (d.kind === "customer" ? "pending" : "awaiting_approval");

/** An integrity failure inside the transaction; its code is stored on the failed action. */
class CommitFailure extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

type TxOutcome =
  | { kind: "executed"; result: WriteResult; effects: EffectKind[] }
  | { kind: "awaiting" }
  | { kind: "refused"; error: AppError };

/** Why a claim failed, in the decider's terms. */
export type Explain = (args: { actionId: string; now: Date }) => Promise<AppError>;

/** The customer's confirm of an action that needs approval: it waits for staff, nothing runs. */
async function awaitApproval(row: ActionRow, userId: string, now: Date): Promise<boolean> {
  return (
    (await transition(row, {
      from: "pending",
      to: "awaiting_approval",
      now,
      decidedBy: userId,
      onlyIfLive: true,
      approvalExpiresAt: new Date(now.getTime() + env().APPROVAL_TTL_HOURS * 3_600_000),
    })) !== null
  );
}

async function runConfirm(
  actionId: string,
  decider: Decider,
  explain: Explain,
  fixedNow: Date | undefined,
  startedAt: number,
): Promise<TxOutcome> {
  return await writeTransaction(async (): Promise<TxOutcome> => {
    // The clock is read after BEGIN IMMEDIATE got the write lock (which can take up to the busy
    // timeout): expiry and the return window are judged at the moment the write happens.
    const now = fixedNow ?? new Date();
    const by = deciderId(decider);
    if (decider.kind === "customer") {
      const own = await getActionRowForUser({ id: actionId, userId: decider.userId });
      if (own?.status === "pending" && own.requiresApproval) {
        return (await awaitApproval(own, decider.userId, now))
          ? { kind: "awaiting" }
          : { kind: "refused", error: await explain({ actionId, now }) };
      }
    }
    if (decider.kind === "staff") {
      // Four eyes means a second person: not the one who asked for it, nor the one who confirmed.
      const row = await getActionById({ id: actionId });
      if (
        row?.status === "awaiting_approval" &&
        (row.userId === decider.staffId || row.decidedBy === decider.staffId)
      ) {
        return {
          kind: "refused",
          error: new AppError(
            "own_action",
            "You cannot approve an action you asked for or confirmed: another staff member must.",
          ),
        };
      }
    }
    const claimed = await claimPendingAction({
      id: actionId,
      userId: decider.kind === "customer" ? decider.userId : undefined,
      from: claimFrom(decider),
      now,
    });
    if (!claimed) return { kind: "refused", error: await explain({ actionId, now }) };
    const row = (await getActionById({ id: actionId }))!;
    // The owner's id, whoever decides: the hash and the tool's ownership checks are the customer's.
    const userId = row.userId;
    const approvedBy = decider.kind === "staff" ? decider.staffId : undefined;
    const tool = writeToolOf(row);
    // The stored arguments, through the same schema as at propose; the caller supplies none.
    const parsed = tool.args.safeParse(row.arguments);
    if (!parsed.success) throw new CommitFailure("invalid_stored_arguments");
    const args = parsed.data;
    if (payloadHash({ tool: row.tool, userId, arguments: args }) !== row.payloadHash) {
      throw new CommitFailure("payload_hash_mismatch");
    }
    const plan = tool.planSchema.parse(row.plan);
    const target = { type: row.targetType, id: row.targetId, version: row.targetVersion };
    const existing = await tool.findExisting(args, { userId, chatId: row.chatId, now });
    const done = existing
      ? ({ kind: "done", result: existing } as const)
      : await tool.commit(args, { actionId, userId, target, plan, now });
    const durationMs = performance.now() - startedAt;
    if (done.kind === "stale") {
      await transition(row, {
        from: "executing",
        to: "stale",
        now,
        decidedBy: by,
        approvedBy,
        errorCode: done.code,
        durationMs,
      });
      return {
        kind: "refused",
        error: new AppError("stale", done.message, {
          details: { status: "stale", reason: done.code },
        }),
      };
    }
    const result = tool.result.parse(done.result);
    // The external effects (a refund) become outbox rows of this same transaction: they exist if
    // and only if the write committed, and the relay carries them out afterwards.
    let requested = "effects" in done ? (done.effects ?? []) : [];
    // The customer's mail about what was just done: part of the same transaction, so it exists
    // if and only if the write committed (never for a declined, expired or superseded one). A
    // write at the store carries it until the store has applied it.
    if ("effects" in done) {
      requested = deferConfirmationMail(
        requested,
        await mailAfterConfirm({
          kind: tool.confirmationMail,
          userId,
          chatId: row.chatId,
          result,
        }),
      );
    }
    await enqueueEffects({ actionId, effects: requested, now });
    await transition(row, {
      from: "executing",
      to: "executed",
      now,
      decidedBy: by,
      approvedBy,
      result,
      durationMs,
    });
    // Stryker disable next-line StringLiteral: the caller tells outcomes apart by "refused" and "awaiting" only
    return { kind: "executed", result, effects: requested.map((e) => e.kind) };
  });
}

export async function confirmAction({
  actionId,
  userId,
  now,
}: {
  actionId: string;
  userId: string;
  /** Tests only; by default the time is taken inside the write transaction. */
  now?: Date;
}): Promise<ConfirmResult> {
  return await decideAndRun({
    actionId,
    decider: { kind: "customer", userId },
    explain: ({ actionId, now }) => explainUndecidable({ actionId, userId, now }),
    now,
  });
}

/**
 * The shared body of a confirm and an approval: the transaction above, then the failure handling
 * and the answer. `explain` says why a claim failed in the decider's terms.
 */
export async function decideAndRun({
  actionId,
  decider,
  explain,
  now,
}: {
  actionId: string;
  decider: Decider;
  explain: Explain;
  now?: Date;
}): Promise<ConfirmResult> {
  const startedAt = performance.now();
  let outcome: TxOutcome;
  try {
    outcome = await runConfirm(actionId, decider, explain, now, startedAt);
  } catch (err) {
    // Rolled back: the action is where it was (pending, or awaiting approval) and nothing was
    // written.
    if (isBusy(err)) {
      // The write lock never came; the action was not touched and can be confirmed again.
      throw new AppError("internal_error", "The store is busy; please try again.");
    }
    const row = await getActionById({ id: actionId });
    if (row && (decider.kind === "staff" || row.userId === decider.userId)) {
      await transition(row, {
        from: claimFrom(decider),
        to: "failed",
        now: now ?? new Date(),
        decidedBy: deciderId(decider),
        approvedBy: decider.kind === "staff" ? decider.staffId : undefined,
        errorCode: err instanceof CommitFailure ? err.code : "commit_failed",
        durationMs: performance.now() - startedAt,
      });
    }
    if (!(err instanceof CommitFailure))
      log().error({ err: errorFields(err), actionId }, "confirm failed");
    throw new AppError("internal_error", "The action could not be completed; nothing was changed.");
  }
  if (outcome.kind === "refused") throw outcome.error;
  const row = (await getActionById({ id: actionId }))!;
  if (outcome.kind === "awaiting")
    return { action: toPendingActionDto(row), result: null, effects: [] };
  // Committed: the relay starts on the effects now; the answer does not wait for the provider.
  if (outcome.effects.length > 0) wakeRelay();
  return {
    action: toPendingActionDto(row),
    result: outcome.result,
    effects: outcome.effects.map((kind) => ({ kind, status: "pending" as const })),
  };
}
