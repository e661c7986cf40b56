/**
 * Browser-side calls to the chat and action API (docs/api.md). Every answer is parsed; an answer that
 * does not parse is reported as a failure rather than rendered half-understood.
 */
import type { z } from "zod";
import { type ApiErrorInfo, parseApiError } from "./errors";
import {
  ACTION_STATUSES,
  type ActionResult,
  type ActionStatus,
  CancelResponseSchema,
  ChatListSchema,
  type ChatSnapshot,
  ChatSnapshotSchema,
  type ChatSummary,
  ConfirmResponseSchema,
  CreatedChatSchema,
  parseChatSnapshot,
} from "./schemas";

export type ApiResult<T> =
  | { ok: true; data: T }
  | { ok: false; status: number; error: ApiErrorInfo | null };

async function call<S extends z.ZodType>(
  url: string,
  schema: S,
  method: "GET" | "POST" = "GET",
): Promise<ApiResult<z.output<S>>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      credentials: "same-origin",
      headers: { accept: "application/json" },
      cache: "no-store",
    });
  } catch {
    return { ok: false, status: 0, error: null };
  }
  const text = await response.text();
  if (!response.ok) return { ok: false, status: response.status, error: parseApiError(text) };
  const parsed = safeJson(text, schema);
  return parsed === undefined
    ? { ok: false, status: response.status, error: null }
    : { ok: true, data: parsed };
}

function safeJson<S extends z.ZodType>(text: string, schema: S): z.output<S> | undefined {
  try {
    const result = schema.safeParse(JSON.parse(text));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}

export async function fetchChatSnapshot(id: string): Promise<ApiResult<ChatSnapshot>> {
  const r = await call(`/api/chats/${encodeURIComponent(id)}`, ChatSnapshotSchema);
  if (!r.ok) return r;
  const snapshot = parseChatSnapshot(r.data);
  return snapshot ? { ok: true, data: snapshot } : { ok: false, status: 200, error: null };
}

export async function fetchChats(): Promise<ApiResult<ChatSummary[]>> {
  const r = await call("/api/chats", ChatListSchema);
  return r.ok ? { ok: true, data: r.data.chats } : r;
}

export async function createChat(): Promise<ApiResult<ChatSummary>> {
  const r = await call("/api/chats", CreatedChatSchema, "POST");
  return r.ok ? { ok: true, data: r.data.chat } : r;
}

/** How a confirm/cancel ended, in terms the card can show. */
export type Decision =
  | { kind: "executed"; result: ActionResult }
  | { kind: "cancelled" }
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

export async function decideAction(
  action: { id: string; chatId: string },
  verb: "confirm" | "cancel",
): Promise<Decision> {
  const url = `/api/actions/${encodeURIComponent(action.id)}/${verb}`;
  if (verb === "confirm") {
    const r = await call(url, ConfirmResponseSchema, "POST");
    return r.ok
      ? { kind: "executed", result: r.data.result }
      : settleFailure(r, action.chatId, action.id);
  }
  const r = await call(url, CancelResponseSchema, "POST");
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
