/**
 * An effects relay in its own OS process, on the test's database (harder-faults.test.ts).
 * - `once`: runs the relay's passes until one claims nothing, then exits (the test may SIGKILL
 *   it in the middle of a provider call).
 * - `loop`: says "ready", then runs passes (two effects a claim, so several processes share the
 *   work) until its stdin closes; one of several instances of the app.
 * Run: node --import tsx --import ./worker-hooks.mjs relay-worker.ts once|loop
 */
import { getDb } from "@/db";
import { runDueEffects } from "@/lib/effects/relay";

const [mode] = process.argv.slice(2);
getDb();
if (mode === "once") {
  while ((await runDueEffects()) > 0) {}
  process.exit(0);
}
if (mode !== "loop") throw new Error("usage: relay-worker once|loop");
let open = true;
process.stdin.on("end", () => {
  open = false;
});
process.stdin.resume();
process.stdout.write("ready\n");
while (open) {
  if ((await runDueEffects({ limit: 2 })) === 0) await new Promise((r) => setTimeout(r, 20));
}
process.exit(0);
