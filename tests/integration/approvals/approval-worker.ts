/**
 * A separate OS process that approves (as staff) or expires actions on the shared database, used
 * by core.test.ts to race approvals across processes and an approval against the expiry sweep.
 * Says "ready", waits for "go", prints one JSON line per attempt.
 * Run: node --conditions=react-server --import tsx approval-worker.ts <approve|sweep> <staffId|nowMs> <actionId>...
 */
import readline from "node:readline";
import { getDb } from "@/db";
import { approveAction } from "@/lib/actions/approve";
import { expireDueActions } from "@/lib/actions/lifecycle";
import { AppError } from "@/lib/errors";

const [mode, who, ...actionIds] = process.argv.slice(2);
if (!mode || !who)
  throw new Error("usage: approval-worker <approve|sweep> <staffId|nowMs> <id>...");

getDb();
process.stdout.write("ready\n");
const lines = readline.createInterface({ input: process.stdin });
lines.once("line", async () => {
  if (mode === "sweep") {
    const n = await expireDueActions(new Date(Number(who)));
    process.stdout.write(`${JSON.stringify({ swept: n })}\n`);
  } else {
    for (const actionId of actionIds) {
      try {
        const { action, result } = await approveAction({
          actionId,
          staffId: who,
          now: process.env.APPROVE_AT ? new Date(Number(process.env.APPROVE_AT)) : undefined,
        });
        process.stdout.write(
          `${JSON.stringify({ actionId, ok: true, status: action.status, result })}\n`,
        );
      } catch (e) {
        const error = e instanceof AppError ? { code: e.code, ...e.details } : { code: String(e) };
        process.stdout.write(`${JSON.stringify({ actionId, ok: false, ...error })}\n`);
      }
    }
  }
  lines.close();
  process.stdin.destroy();
});
