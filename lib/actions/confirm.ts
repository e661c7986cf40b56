/**
 * Confirm: the only way a write happens. Takes an action id and the signed-in user, nothing else,
 * and executes the stored arguments in one write transaction (BEGIN IMMEDIATE on SQLite):
 * claim (pending -> executing, conditional) -> re-verify the payload hash -> the tool's business
 * key (an effect that already exists answers with createdNow: false) -> the tool's commit
 * (version compare-and-set, write) -> its external effects into the outbox -> executed + audit
 * `success`. The provider is called later, by the relay (lib/effects/relay.ts).
 * Because claim and effect commit together, `executing` is never visible to other connections;
 * a crash or a throw leaves the action `pending` with no effect, and we then mark it `failed`.
 */
import "server-only";
import { claimPendingAction, getActionById } from "@/db/queries/actions";
import { isBusy, writeTransaction } from "@/db/queries/tx";
import type { EffectKind } from "@/lib/effects/kinds";
import { mailAfterConfirm } from "@/lib/effects/mail/compose";
import { enqueueEffects } from "@/lib/effects/outbox";
import { wakeRelay } from "@/lib/effects/signal";
import { AppError } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";
import type { WriteResult } from "@/lib/tools/types";
import { type PendingActionDto, toPendingActionDto, writeToolOf } from "./dto";
import { payloadHash } from "./hash";
import { explainUndecidable } from "./refusals";
import { transition } from "./transition";

export type ConfirmResult = {
  action: PendingActionDto;
  result: WriteResult;
  /** The effects this confirm stored, as it committed them (all `pending`; the relay is next). */
  effects: { kind: EffectKind; status: "pending" }[];
};

/** An integrity failure inside the transaction; its code is stored on the failed action. */
class CommitFailure extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

type TxOutcome =
  | { kind: "executed"; result: WriteResult; effects: EffectKind[] }
  | { kind: "refused"; error: AppError };

async function runConfirm(
  actionId: string,
  userId: string,
  fixedNow: Date | undefined,
  startedAt: number,
): Promise<TxOutcome> {
  return await writeTransaction(async (): Promise<TxOutcome> => {
    // The clock is read after BEGIN IMMEDIATE got the write lock (which can take up to the busy
    // timeout): expiry and the return window are judged at the moment the write happens.
    const now = fixedNow ?? new Date();
    if (!(await claimPendingAction({ id: actionId, userId, now }))) {
      return { kind: "refused", error: await explainUndecidable({ actionId, userId, now }) };
    }
    const row = (await getActionById({ id: actionId }))!;
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
        decidedBy: userId,
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
    const requested = "effects" in done ? (done.effects ?? []) : [];
    // The customer's mail about what was just done: part of the same transaction, so it exists
    // if and only if the write committed (never for a declined, expired or superseded one).
    if ("effects" in done) {
      requested.push(
        ...(await mailAfterConfirm({ tool: row.tool, userId, chatId: row.chatId, result })),
      );
    }
    await enqueueEffects({ actionId, effects: requested, now });
    await transition(row, {
      from: "executing",
      to: "executed",
      now,
      decidedBy: userId,
      result,
      durationMs,
    });
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
  const startedAt = performance.now();
  let outcome: TxOutcome;
  try {
    outcome = await runConfirm(actionId, userId, now, startedAt);
  } catch (err) {
    // Rolled back: the action is `pending` again and nothing was written.
    if (isBusy(err)) {
      // The write lock never came; the action was not touched and can be confirmed again.
      throw new AppError("internal_error", "The store is busy; please try again.");
    }
    const row = await getActionById({ id: actionId });
    if (row && row.userId === userId) {
      await transition(row, {
        from: "pending",
        to: "failed",
        now: now ?? new Date(),
        decidedBy: userId,
        errorCode: err instanceof CommitFailure ? err.code : "commit_failed",
        durationMs: performance.now() - startedAt,
      });
    }
    if (!(err instanceof CommitFailure))
      log().error({ err: errorFields(err), actionId }, "confirm failed");
    throw new AppError("internal_error", "The action could not be completed; nothing was changed.");
  }
  if (outcome.kind === "refused") throw outcome.error;
  // Committed: the relay starts on the effects now; the answer does not wait for the provider.
  if (outcome.effects.length > 0) wakeRelay();
  const row = (await getActionById({ id: actionId }))!;
  return {
    action: toPendingActionDto(row),
    result: outcome.result,
    effects: outcome.effects.map((kind) => ({ kind, status: "pending" as const })),
  };
}
