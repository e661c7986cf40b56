/**
 * Start-up work of the action core: resolve anything a crash left `executing`, then expire
 * pending actions periodically (reads also expire lazily, so the sweep only keeps the audit
 * timely and the table tidy).
 */
import "server-only";
import { withStartupLock } from "@/db";
import { deleteIdleWindows } from "@/db/queries/rate-limits";
import { errorFields, log } from "@/lib/log";
import { expireDueActions, recoverInterruptedActions } from "./lifecycle";

const SWEEP_EVERY_MS = 30_000;
const g = globalThis as unknown as { __returnsDeskSweep?: NodeJS.Timeout };

export async function startActionCore(): Promise<void> {
  // Under the start-up lock on PostgreSQL: one instance recovers at a time. Recovery only ever
  // finds rows an older version left `executing` (confirm claims and writes in one transaction),
  // and every transition is conditional, so a second instance finds nothing left to do.
  const recovered = await withStartupLock(() => recoverInterruptedActions());
  if (recovered.executed + recovered.failed > 0)
    log().warn({ recovered }, "recovered interrupted actions");
  await expireDueActions();
  if (g.__returnsDeskSweep) return;
  g.__returnsDeskSweep = setInterval(async () => {
    try {
      await expireDueActions();
      await deleteIdleWindows({ now: new Date() });
    } catch (err) {
      log().error({ err: errorFields(err) }, "expiry sweep failed");
    }
  }, SWEEP_EVERY_MS);
  // Every instance sweeps: each expiry is a conditional update plus its audit event in one
  // transaction, so two instances racing on one action expire (and audit) it once.
  // Never keep the process alive just for the sweep.
  g.__returnsDeskSweep.unref();
}
