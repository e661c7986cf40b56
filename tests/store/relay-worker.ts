/**
 * One relay pass in a process of its own, so a test can SIGKILL it while the store is applying a
 * write (tests/store/medusa-kill.test.ts). Usage: tsx relay-worker.ts (the environment names the
 * database and the store).
 *
 * It runs under the react-server condition (for "server-only"), where react-dom/server cannot
 * render a mail: the confirmation mails it claims fail to render ("effect attempt failed" in the
 * log) and stay in flight for the next relay. The store writes are what it is here for.
 */
import { getDb } from "@/db";
import { runDueEffects } from "@/lib/effects/relay";

getDb();
await runDueEffects();
process.exit(0);
