/**
 * How a confirm or cancel ended, in terms the card can show, from the API's answer. Pure, so it is
 * unit-tested; the calls themselves are lib/api-client/browser.ts.
 */
import type { ApiErrorInfo } from "./errors";
import { ACTION_STATUSES, type ActionStatus, type PendingAction } from "./schemas";

/** How a confirm/cancel ended, in terms the card can show. */
export type Decision =
  /** `note` is the tool's own sentence about what was done (its describe()). */
  | { kind: "executed"; note: PendingAction["view"]["outcome"] }
  | { kind: "cancelled" }
  /** Confirmed, and now it waits for staff approval: nothing was executed yet. */
  | { kind: "awaiting_approval" }
  /** Someone (another tab) decided first; `status` is what the server says it is now. */
  | { kind: "already_decided"; status: ActionStatus | null }
  | { kind: "expired" }
  | { kind: "stale" }
  | { kind: "superseded" }
  | { kind: "not_found" }
  | { kind: "failed" }
  /** The server answered 2xx with something this page cannot read: the state is unknown. */
  | { kind: "unreadable" }
  /** Not decided: the click can be tried again (offline, session expired). */
  | { kind: "retryable"; reason: "network" | "unauthenticated" | "server" };

export function decisionFromError(r: { status: number; error: ApiErrorInfo | null }): Decision {
  if (r.status === 0) return { kind: "retryable", reason: "network" };
  if (r.status >= 200 && r.status < 300) return { kind: "unreadable" };
  switch (r.error?.code) {
    case "unauthenticated":
      return { kind: "retryable", reason: "unauthenticated" };
    case "already_decided": {
      const status = ACTION_STATUSES.find((s) => s === r.error?.status) ?? null;
      return { kind: "already_decided", status };
    }
    case "expired":
      return { kind: "expired" };
    case "stale":
      return { kind: "stale" };
    case "superseded":
      return { kind: "superseded" };
    case "not_found":
      return { kind: "not_found" };
    default:
      // A 5xx from confirm means the transaction rolled back and the action is now `failed`.
      return { kind: "failed" };
  }
}
