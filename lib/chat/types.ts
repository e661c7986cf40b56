/**
 * The UI message shape shared by the server (persisted parts, the stream) and the browser.
 * Types only: safe to import from client components.
 */
import type { UIMessage } from "ai";
import type { PendingActionDto } from "@/lib/actions/dto";

export type ActionOutcomeStatus =
  | "executed"
  | "cancelled"
  | "expired"
  | "stale"
  | "superseded"
  | "failed";

/** Appended to the chat after a decision, so both the UI (on reload) and the model know. */
export type ActionOutcome = {
  actionId: string;
  status: ActionOutcomeStatus;
  result?: { requestId: string; orderId: string; createdNow: boolean } | null;
};

export type ChatDataParts = {
  "pending-action": PendingActionDto;
  "action-outcome": ActionOutcome;
};

export type ChatUIMessage = UIMessage<never, ChatDataParts>;

export type { PendingActionDto };
