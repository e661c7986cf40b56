/**
 * Browser-side calls to the chat and action API (docs/api.md), over the typed client
 * (index.ts). Every answer is parsed; an answer that does not parse is reported as a
 * failure rather than rendered half-understood.
 */
import { type Decision, decisionFromError } from "@/lib/chat-client/decision";
import type { ApiErrorInfo } from "@/lib/chat-client/errors";
import type { ChatSnapshot, ChatSummary } from "@/lib/chat-client/schemas";
import { type ApiResult, createApiClient } from "./index";

export type { ApiResult, Decision };

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

/** The customer's edit of a pending proposal; the answer is the new pending action. */
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
