/**
 * How a write tool's commit() writes its effect, the same for every tool: insert the effect row
 * under its business key (one per order), and then compare-and-set the target's version.
 *
 * The insert comes first so that two actions for one order settle on the UNIQUE key: the loser's
 * insert waits for the winner's and answers with the winner's row (createdNow: false), which is
 * what the customer should hear, not "the order changed".
 *
 * Both run in a savepoint, because on PostgreSQL the target can still move between commit()'s
 * version check and the compare-and-set (SQLite's BEGIN IMMEDIATE shuts every other writer out,
 * so there it cannot): staff marking the order shipped at that moment. The compare-and-set then
 * matches no row; the savepoint takes the inserted effect back and the action ends `stale`, as if
 * the check had seen the change, instead of failing the whole confirm.
 */
import { writeTransaction } from "@/db/queries/tx";
import type { EffectRequest } from "@/lib/effects/kinds";
import type { CommitOutcome } from "./types";

/** Thrown inside the savepoint only, to roll the effect back; never leaves this module. */
class TargetMoved extends Error {
  constructor(readonly why: { code: string; message: string } | null) {
    super("target moved");
  }
}

export async function writeEffectOnce<Row, Result>(steps: {
  /** Inserts the effect row unless the business key already has one; null when it had. */
  insert: () => Promise<Row | null>;
  /** The row that holds the business key (after insert returned null). */
  winner: () => Promise<Row | undefined | null>;
  /**
   * The conditional updates of the target on its version (and of anything else the write takes,
   * such as stock); false when no row matched, or the reason the customer hears instead of
   * `moved` (the last unit was just sold).
   */
  compareAndSet: () => Promise<boolean | { code: string; message: string }>;
  toResult: (row: Row, createdNow: boolean) => Result;
  /** The external effects the new row requires (not asked when the business key had a row). */
  effects?: (row: Row) => EffectRequest[];
  /** What the customer hears when the target moved under us. */
  moved: { code: string; message: string };
}): Promise<CommitOutcome<Result>> {
  try {
    return await writeTransaction(async (): Promise<CommitOutcome<Result>> => {
      const row = await steps.insert();
      if (!row) {
        const winner = await steps.winner();
        // The key was taken, so a row holds it: a missing one means the schema lost the key.
        if (!winner) throw new Error("business key conflict without a row");
        return { kind: "done", result: steps.toResult(winner, false) };
      }
      const set = await steps.compareAndSet();
      if (set !== true) throw new TargetMoved(set === false ? null : set);
      return {
        kind: "done",
        result: steps.toResult(row, true),
        effects: steps.effects?.(row) ?? [],
      };
    });
  } catch (err) {
    if (err instanceof TargetMoved) return { kind: "stale", ...(err.why ?? steps.moved) };
    throw err;
  }
}
