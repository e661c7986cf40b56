/**
 * Server start: database ready (migrated, demo-seeded). Other layers register their start-up
 * work here (e.g. recovering actions a crash left `executing`, the expiry sweep, the effects relay).
 */
import { initDatabase } from "@/db/init";
import { startActionCore } from "@/lib/actions/sweeper";
import { authSecret } from "@/lib/auth/secret";
import { noteApprovalExpiries } from "@/lib/chat/approvals";
import { startCorridorWatch } from "@/lib/chat/candidate/canary";
import { registerReplanner } from "@/lib/chat/replan";
import { startRelay } from "@/lib/effects/relay";
import { startGuestPrune } from "@/lib/guests/prune";

export async function startServer(): Promise<void> {
  await initDatabase();
  // A missing session secret is created now; an unusable one stops the start with its message.
  authSecret();
  // Before the first sweep: an approval that expires is noted in the customer's chat.
  noteApprovalExpiries();
  await startActionCore();
  // The relay's fresh plan after the store refused a write (`action.replan`) is the tools' and
  // the chat's work, which lib/effects must not import: injected here, before the relay starts.
  registerReplanner();
  // After recovery: the outbox's effects (a confirmed cancellation's refund) go out from here.
  startRelay();
  // The canary's judgement and the drift alerts, as each window closes.
  startCorridorWatch();
  // Guest accounts idle past GUEST_IDLE_DAYS go, with their chats and pending actions.
  startGuestPrune();
}
