/**
 * A process that dies by SIGKILL in the middle of a confirm, as an older or foreign writer could:
 * "effect" commits the claim (executing) and the tool's effect, then is killed before marking the
 * action executed; "claim" commits only the claim. Start-up recovery must sort both out through
 * the tool's findEffect(). Usage: tsx crash-worker.ts <userId> <actionId> effect|claim
 */
import { getDb } from "@/db";
import { claimPendingAction, getActionById } from "@/db/queries/actions";
import { writeTransaction } from "@/db/queries/tx";
import { writeToolOf } from "@/lib/actions/dto";

const [userId, actionId, mode] = process.argv.slice(2) as [string, string, "effect" | "claim"];
getDb();
const now = new Date();
await writeTransaction(async () => {
  if (!(await claimPendingAction({ id: actionId, userId, now }))) throw new Error("claim failed");
  if (mode === "claim") return;
  const row = (await getActionById({ id: actionId }))!;
  const tool = writeToolOf(row);
  const done = await tool.commit(tool.args.parse(row.arguments), {
    actionId,
    userId,
    target: { type: row.targetType, id: row.targetId, version: row.targetVersion },
    plan: tool.planSchema.parse(row.plan),
    now,
  });
  if (done.kind !== "done") throw new Error(`commit refused: ${done.code}`);
});
process.kill(process.pid, "SIGKILL");
