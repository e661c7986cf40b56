/**
 * Browser-side calls to the chat and action API (docs/api.md), over the typed client
 * (lib/api-client). Every answer is parsed; an answer that does not parse is reported as a
 * failure rather than rendered half-understood.
 */
import { type ApiResult, createApiClient } from "@/lib/api-client";
import type { ApiErrorInfo } from "./errors";
import {
  ACTION_STATUSES,
  type ActionStatus,
  type ChatSnapshot,
  type ChatSummary,
  type PendingAction,
} from "./schemas";

export type { ApiResult };

/** Same origin: the browser sends the session cookie itself. */
const api = createApiClient();

export function fetchChatSnapshot(id: string): Promise<ApiResult<ChatSnapshot>> {
  return api.getChat(id);
}

export function fetchChats(): Promise<ApiResult<ChatSummary[]>> {
  return api.listChats();
}

export function createChat(): Promise<ApiResult<ChatSummary>> {
  return api.createChat();
}

/** The action now, with its effects: what the card polls while a refund is under way. */
export function fetchAction(id: string) {
  return api.getAction(id);
}

/** How a confirm/cancel ended, in terms the card can show. */
export type Decision =
  /** `note` is the tool's own sentence about what was done (its describe()). */
  | { kind: "executed"; note: PendingAction["view"]["outcome"] }
  | { kind: "cancelled" }
  /** Confirmed, and now it waits for staff approval (issue 22): nothing was executed yet. */
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

/** The customer's edit of a pending proposal (issue 22); the answer is the new pending action. */
export function reviseAction(actionId: string, args: Record<string, unknown>) {
  return api.reviseAction(actionId, args);
}

export async function decideAction(
  action: { id: string; chatId: string },
  verb: "confirm" | "cancel",
): Promise<Decision> {
  if (verb === "confirm") {
    const r = await api.confirmAction(action.id);
    if (!r.ok) return settleFailure(r, action.chatId, action.id);
    return r.data.action.status === "awaiting_approval"
      ? { kind: "awaiting_approval" }
      : { kind: "executed", note: r.data.action.view.outcome };
  }
  const r = await api.cancelAction(action.id);
  return r.ok ? { kind: "cancelled" } : settleFailure(r, action.chatId, action.id);
}

async function settleFailure(
  r: { status: number; error: ApiErrorInfo | null },
  chatId: string,
  actionId: string,
): Promise<Decision> {
  const decision = decisionFromError(r);
  if (decision.kind !== "failed") return decision;
  // A 500 usually means the write rolled back and the action is now `failed`, but a busy
  // database leaves it pending: ask the server which, rather than guess.
  const now = await fetchChatSnapshot(chatId);
  const stillPending = now.ok && now.data.pendingAction?.id === actionId;
  return stillPending ? { kind: "retryable", reason: "server" } : decision;
}

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
