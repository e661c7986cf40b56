/**
 * One relay pass in a process of its own, so a test can SIGKILL it while the store is applying a
 * write (tests/store/medusa-kill.test.ts). Usage: tsx relay-worker.ts (the environment names the
 * database and the store).
 */
import { getDb } from "@/db";
import { runDueEffects } from "@/lib/effects/relay";

getDb();
await runDueEffects();
process.exit(0);
