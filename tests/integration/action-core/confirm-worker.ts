/**
 * A separate OS process that confirms actions on the shared database file, used by
 * concurrency.test.ts. It imports the real code, says "ready", waits for "go" on stdin so all
 * processes start together, then prints one JSON line per confirm attempt.
 * Run: node --conditions=react-server --import tsx confirm-worker.ts <userId> <actionId>...
 */
import readline from "node:readline";
import { getDb } from "@/db";
import { confirmAction } from "@/lib/actions/confirm";
import { AppError } from "@/lib/errors";

const [userId, ...actionIds] = process.argv.slice(2);
if (!userId || actionIds.length === 0)
  throw new Error("usage: confirm-worker <userId> <actionId>...");

getDb();
process.stdout.write("ready\n");
const lines = readline.createInterface({ input: process.stdin });
lines.once("line", async () => {
  for (const actionId of actionIds) {
    try {
      const { result } = await confirmAction({ actionId, userId });
      process.stdout.write(
        `${JSON.stringify({ actionId, ok: true, createdNow: result?.createdNow, result })}\n`,
      );
    } catch (e) {
      const error = e instanceof AppError ? { code: e.code, ...e.details } : { code: String(e) };
      process.stdout.write(`${JSON.stringify({ actionId, ok: false, ...error })}\n`);
    }
  }
  lines.close();
  process.stdin.destroy();
});
