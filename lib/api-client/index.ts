/**
 * A typed client of the Returns Desk HTTP API (docs/api.md, GET /api/openapi.json) over `fetch`. It
 * runs in the browser (same origin, the browser keeps the session cookie) and in Node (the
 * terminal chat, the benchmark, the system tests), where it keeps the cookie itself and sends
 * the `Origin` a same-origin page would.
 *
 * Nothing throws for an HTTP or network failure: every call answers an ApiResult, with the API's
 * own error object when there is one. Every success body is parsed; one that does not parse is
 * reported as a failure rather than used half-understood.
 */
import {
  parseJsonEventStream,
  readUIMessageStream,
  type UIMessageChunk,
  uiMessageChunkSchema,
} from "ai";
import type { z } from "zod";
import {
  type ApiErrorInfo,
  type ApiFailure,
  type ApiResult,
  parseApiError,
} from "@/lib/chat-client/errors";
import { pendingActionOf } from "@/lib/chat-client/messages";
import {
  ChatListSchema,
  type ChatMessage,
  type ChatSnapshot,
  type ChatSummary,
  CreatedChatSchema,
  type PendingAction,
  parseChatSnapshot,
  ReviseResponseSchema,
} from "@/lib/chat-client/schemas";
import {
  AcknowledgeAlertSchema,
  ActionDetailSchema,
  ApprovalsSchema,
  ApproveResponseSchema,
  AuditPageSchema,
  CancelResponseSchema,
  CandidateReportSchema,
  ConfirmResponseSchema,
  DriftReportSchema,
  HandoffQueueSchema,
  HealthSchema,
  RejectResponseSchema,
  ReleaseSchema,
  SignInSchema,
  StaffReplySchema,
  TriageResponseSchema,
} from "./schemas";

export type { ApiErrorInfo, ApiFailure, ApiResult };

export type ApiClientOptions = {
  /** "" in the browser (same origin); "http://localhost:3000" from Node. */
  baseUrl?: string;
  fetch?: typeof fetch;
};

/** How one chat turn ended. */
export type TurnResult = {
  /** The assistant message as the stream built it (AI SDK UIMessage). */
  message: ChatMessage | null;
  /** The proposal the turn ended with, if any. */
  pendingAction: PendingAction | null;
  /** The stream's error part: the model or provider failed and the server stored nothing. */
  errorText: string | null;
};

export type TurnOptions = {
  /** Every new state of the assistant message while it streams (text grows, parts arrive). */
  onUpdate?: (message: ChatMessage) => void;
  signal?: AbortSignal;
};

const inBrowser = () => typeof window !== "undefined" && typeof document !== "undefined";

export type ApiClient = ReturnType<typeof createApiClient>;

export function createApiClient(options: ApiClientOptions = {}) {
  const baseUrl = (options.baseUrl ?? "").replace(/\/+$/, "");
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  /** Node only: the session cookie(s), name -> value. The browser keeps its own. */
  const jar = new Map<string, string>();

  function keepCookies(res: Response): void {
    if (inBrowser() || typeof res.headers.getSetCookie !== "function") return;
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair!.indexOf("=");
      if (eq < 1) continue;
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const gone = value === "" || attrs.some((a) => /^\s*max-age\s*=\s*0\s*$/i.test(a));
      if (gone) jar.delete(name);
      else jar.set(name, value);
    }
  }

  async function send(
    path: string,
    init: { method?: "GET" | "POST"; json?: unknown; signal?: AbortSignal; accept?: string } = {},
  ): Promise<Response | null> {
    const method = init.method ?? "GET";
    const headers = new Headers({ accept: init.accept ?? "application/json" });
    if (init.json !== undefined) headers.set("content-type", "application/json");
    if (!inBrowser()) {
      if (jar.size > 0) headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
      // What a same-origin page sends with a POST; better-auth and our origin check read it.
      if (method === "POST" && baseUrl) headers.set("origin", new URL(baseUrl).origin);
    }
    try {
      const res = await doFetch(`${baseUrl}${path}`, {
        method,
        headers,
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
        credentials: "same-origin",
        cache: "no-store",
        signal: init.signal,
      });
      keepCookies(res);
      return res;
    } catch {
      return null;
    }
  }

  async function failure(res: Response | null): Promise<ApiFailure> {
    if (!res) return { ok: false, status: 0, error: null };
    const text = await res.text().catch(() => "");
    return { ok: false, status: res.status, error: parseApiError(text) };
  }

  async function call<S extends z.ZodType>(
    path: string,
    schema: S,
    init: { method?: "GET" | "POST"; json?: unknown } = {},
  ): Promise<ApiResult<z.output<S>>> {
    const res = await send(path, init);
    if (!res?.ok) return failure(res);
    const text = await res.text();
    try {
      const parsed = schema.safeParse(JSON.parse(text));
      if (parsed.success) return { ok: true, data: parsed.data };
    } catch {
      // Not JSON: reported below like a body that does not parse.
    }
    return { ok: false, status: res.status, error: null };
  }

  const id = encodeURIComponent;

  return {
    baseUrl,

    /** The Cookie header this client sends (Node); "" in the browser. */
    get cookieHeader(): string {
      return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    },

    signIn: (email: string, password: string) =>
      call("/api/auth/sign-in/email", SignInSchema, {
        method: "POST",
        json: { email, password },
      }),

    async signOut(): Promise<ApiResult<null>> {
      const res = await send("/api/auth/sign-out", { method: "POST", json: {} });
      if (!res?.ok) return failure(res);
      await res.body?.cancel();
      jar.clear();
      return { ok: true, data: null };
    },

    health: () => call("/api/health", HealthSchema),

    async listChats(): Promise<ApiResult<ChatSummary[]>> {
      const r = await call("/api/chats", ChatListSchema);
      return r.ok ? { ok: true, data: r.data.chats } : r;
    },

    async createChat(): Promise<ApiResult<ChatSummary>> {
      const r = await call("/api/chats", CreatedChatSchema, { method: "POST" });
      return r.ok ? { ok: true, data: r.data.chat } : r;
    },

    async getChat(chatId: string): Promise<ApiResult<ChatSnapshot>> {
      const res = await send(`/api/chats/${id(chatId)}`);
      if (!res?.ok) return failure(res);
      let snapshot: ChatSnapshot | null = null;
      try {
        snapshot = parseChatSnapshot(await res.json());
      } catch {
        snapshot = null;
      }
      return snapshot
        ? { ok: true, data: snapshot }
        : { ok: false, status: res.status, error: null };
    },

    /**
     * One chat turn. The reply streams through `onUpdate` as it arrives, read with the AI SDK's
     * own UI message stream reader; the result says whether the turn ended with a proposal or
     * with a model failure. A refusal (409 action_pending, 429, ...) is an ApiFailure.
     */
    async sendMessage(
      chatId: string,
      text: string,
      opts: TurnOptions = {},
    ): Promise<ApiResult<TurnResult>> {
      const res = await send(`/api/chats/${id(chatId)}/messages`, {
        method: "POST",
        json: { text },
        signal: opts.signal,
        accept: "text/event-stream",
      });
      if (!res?.ok || !res.body) return failure(res);
      let errorText: string | null = null;
      let message: ChatMessage | null = null;
      const chunks = parseJsonEventStream({
        stream: res.body,
        schema: uiMessageChunkSchema,
      }).pipeThrough(
        new TransformStream<{ success: boolean; value?: unknown; error?: unknown }, UIMessageChunk>(
          {
            transform(part, controller) {
              // A chunk this SDK version does not know is skipped, not fatal.
              if (part.success) controller.enqueue(part.value as UIMessageChunk);
            },
          },
        ),
      );
      try {
        for await (const m of readUIMessageStream<ChatMessage>({
          stream: chunks,
          onError: (e) => {
            errorText = e instanceof Error ? e.message : String(e);
          },
        })) {
          message = m;
          opts.onUpdate?.(m);
        }
      } catch {
        // The connection broke mid-stream.
        errorText ??= "The connection was interrupted.";
      }
      const pendingAction = message?.parts.map(pendingActionOf).findLast((a) => a !== null) ?? null;
      return { ok: true, data: { message, pendingAction, errorText } };
    },

    /** The action with its effects (a refund's progress); staff may read any action. */
    getAction: (actionId: string) => call(`/api/actions/${id(actionId)}`, ActionDetailSchema),

    confirmAction: (actionId: string) =>
      call(`/api/actions/${id(actionId)}/confirm`, ConfirmResponseSchema, { method: "POST" }),

    cancelAction: (actionId: string) =>
      call(`/api/actions/${id(actionId)}/cancel`, CancelResponseSchema, { method: "POST" }),

    /** Staff only: the candidate model profile against the live one, in shadow. */
    getCandidateReport: () => call("/api/staff/candidate", CandidateReportSchema),

    /** Staff only: the canary's kill switch; every new turn goes live. */
    rollbackCandidate: (reason?: string) =>
      call("/api/staff/candidate/rollback", CandidateReportSchema, {
        method: "POST",
        json: reason === undefined ? {} : { reason },
      }),

    /** Staff only: the drift corridor's windows, corridors, breaches and alerts. */
    getDriftReport: () => call("/api/staff/drift", DriftReportSchema),

    /** Staff only: acknowledges an alert (its banner goes). */
    acknowledgeAlert: (alertId: string) =>
      call(`/api/staff/alerts/${id(alertId)}/acknowledge`, AcknowledgeAlertSchema, {
        method: "POST",
      }),

    /** Staff only: the chats a person has taken over, longest waiting first. */
    listHandoffs: () => call("/api/staff/handoffs", HandoffQueueSchema),

    /** Staff only: a reply in a handed-off chat, shown to the customer with the staff name. */
    replyInChat: (chatId: string, text: string) =>
      call(`/api/staff/chats/${id(chatId)}/messages`, StaffReplySchema, {
        method: "POST",
        json: { text },
      }),

    /** Staff only: hands the chat back to the assistant. */
    releaseChat: (chatId: string) =>
      call(`/api/staff/chats/${id(chatId)}/release`, ReleaseSchema, { method: "POST" }),
    /** The customer's edit of a pending proposal: only the tool's editable fields. */
    reviseAction: (actionId: string, args: Record<string, unknown>) =>
      call(`/api/actions/${id(actionId)}/revise`, ReviseResponseSchema, {
        method: "POST",
        json: { args },
      }),

    /** Staff only: actions awaiting approval, oldest confirm first. */
    listApprovals: () => call("/api/staff/approvals", ApprovalsSchema),

    /** Staff only: executes exactly the stored arguments of an action awaiting approval. */
    approveAction: (actionId: string) =>
      call(`/api/staff/actions/${id(actionId)}/approve`, ApproveResponseSchema, { method: "POST" }),

    /** Staff only: declines an action awaiting approval with a reason the customer reads. */
    rejectAction: (actionId: string, reason: string) =>
      call(`/api/staff/actions/${id(actionId)}/reject`, RejectResponseSchema, {
        method: "POST",
        json: { reason },
      }),

    /** Staff only. `params` are docs/api.md's filters (status, tool, chatId, userId, from, to, cursor, limit). */
    listAuditEvents: (params: Record<string, string | number | undefined> = {}) => {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
      const qs = q.toString();
      return call(`/api/audit${qs ? `?${qs}` : ""}`, AuditPageSchema);
    },

    /** Staff only: analyse a chat now (category, urgency, summary, next step). */
    triageChat: (chatId: string) =>
      call(`/api/staff/chats/${id(chatId)}/triage`, TriageResponseSchema, { method: "POST" }),
  };
}
