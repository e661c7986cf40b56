/**
 * Start-up work of the action core: resolve anything a crash left `executing`, then expire
 * pending actions periodically (reads also expire lazily, so the sweep only keeps the audit
 * timely and the table tidy).
 */
import "server-only";
import { errorFields, log } from "@/lib/log";
import { expireDueActions, recoverInterruptedActions } from "./lifecycle";

const SWEEP_EVERY_MS = 30_000;
const g = globalThis as unknown as { __returnsDeskSweep?: NodeJS.Timeout };

export function startActionCore(): void {
  const recovered = recoverInterruptedActions();
  if (recovered.executed + recovered.failed > 0)
    log().warn({ recovered }, "recovered interrupted actions");
  expireDueActions();
  if (g.__returnsDeskSweep) return;
  g.__returnsDeskSweep = setInterval(() => {
    try {
      expireDueActions();
    } catch (err) {
      log().error({ err: errorFields(err) }, "expiry sweep failed");
    }
  }, SWEEP_EVERY_MS);
  // Never keep the process alive just for the sweep.
  g.__returnsDeskSweep.unref();
}
