/**
 * A separate OS process for receive-race.test.ts, on the test's database.
 * - `receive <staffId> <requestId> <n>`: says "ready", waits for "go", then marks the return
 *   received n times, one JSON line per call ({"ok"} or {"code"}).
 * - `relay`: runs the effects relay's passes until nothing is due (the test SIGKILLs it from the
 *   loopback Stripe server, between Stripe's apply and our record).
 * Run: node --conditions=react-server --import tsx receive-worker.ts …
 */
import readline from "node:readline";
import { getDb } from "@/db";
import { runDueEffects } from "@/lib/effects/relay";
import { AppError } from "@/lib/errors";
import { markReturnReceived } from "@/lib/returns/receive";

const [mode, staffId, requestId, n] = process.argv.slice(2);
getDb();
if (mode === "relay") {
  while ((await runDueEffects()) > 0) {}
  process.exit(0);
}
if (!staffId || !requestId)
  throw new Error("usage: receive-worker receive <staffId> <requestId> <n>");
process.stdout.write("ready\n");
const lines = readline.createInterface({ input: process.stdin });
lines.once("line", async () => {
  for (let i = 0; i < Number(n ?? 1); i++) {
    try {
      await markReturnReceived({ requestId, staffId });
      process.stdout.write(`${JSON.stringify({ ok: true })}\n`);
    } catch (e) {
      process.stdout.write(
        `${JSON.stringify({ ok: false, code: e instanceof AppError ? e.code : String(e) })}\n`,
      );
    }
  }
  lines.close();
  process.stdin.destroy();
});
