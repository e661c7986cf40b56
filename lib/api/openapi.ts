/**
 * The OpenAPI 3.1 description of the HTTP API, served at GET /api/openapi.json. Rendered by
 * zod-openapi from the schemas the handlers validate requests with (message body, audit query)
 * and the response schemas of lib/api/schemas.ts, so the document cannot drift from the code
 * without the contract tests noticing (harness/contract.ts).
 *
 * Each operation lists the error codes it can answer; they are grouped by HTTP status here, so
 * a code is documented under exactly the status lib/errors.ts gives it.
 */
import "server-only";
import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject } from "zod-openapi";
import { ERROR_STATUS, type ErrorCode } from "@/lib/errors";
import { auditFilterParams, auditListParams } from "./audit-params";
import { CandidateReportResponse } from "./candidate";
import { AlertView, DriftResponse, RollbackBody } from "./drift";
import { sendMessageBody } from "./message";
import {
  ActionDetail,
  ApiErrorBody,
  ApiErrorObject,
  ApprovalsResponse,
  ApproveResponse,
  AuditPageResponse,
  CancelResponse,
  ChatCreatedResponse,
  ChatListResponse,
  ChatViewResponse,
  ConfirmResponse,
  EDITABLE_FIELDS_TEXT,
  EmbedGuestRequest,
  EmbedGuestResponse,
  EmbedSessionRequest,
  EmbedSessionResponse,
  EmbedSignOutResponse,
  GuestSessionRequest,
  GuestSessionResponse,
  GuestVerificationConfirm,
  GuestVerificationRequest,
  GuestVerificationResponse,
  GuestVerifiedResponse,
  HandoffQueueResponse,
  HealthResponse,
  ReceiveReturnResponse,
  RejectRequestSchema,
  RejectResponse,
  ReleaseResponse,
  ResolveEffectBody,
  RetryEffectBody,
  ReviseRequestSchema,
  ReviseResponse,
  ShipOrderResponse,
  SignInBody,
  SignInResponse,
  SignOutResponse,
  StaffEffectResponse,
  StaffEffectsQuery,
  StaffEffectsResponse,
  StaffReplyResponse,
  StaffTranscriptResponse,
  TriageResponse,
} from "./schemas";

/** better-auth's own refusals on its routes, snake_cased by lib/auth/contract-error.ts. */
const AUTH_ERRORS: Record<number, string[]> = {
  400: [
    "validation_error",
    "invalid_email",
    "bad_request",
    "password_too_long",
    "password_too_short",
    // Ours, before better-auth: an email over 254 characters (lib/auth/sign-in-guard.ts).
    "invalid_request",
  ],
  401: ["invalid_email_or_password"],
  403: ["invalid_origin", "missing_or_null_origin", "cross_site_navigation_login_blocked"],
  // Ours, before better-auth: every auth POST body is capped at 8 KiB.
  413: ["payload_too_large"],
  415: ["unsupported_media_type"],
  429: ["rate_limited"],
  500: ["internal_error", "failed_to_get_session"],
};

const STATUS_TEXT: Record<number, string> = {
  400: "Bad request",
  401: "Not signed in",
  403: "Forbidden",
  404: "Not found (or not yours: answered exactly alike)",
  405: "Method not allowed",
  409: "Conflict",
  410: "Gone",
  413: "Too large",
  415: "Unsupported media type",
  429: "Too many requests (Retry-After says when to try again)",
  500: "Internal error (never a stack trace)",
  502: "The model failed",
  503: "Overloaded: more chat turns than the server admits (Retry-After says when to try again)",
};

function errorResponse(status: number, codes: readonly string[], opts = { betterAuth: false }) {
  const error = ApiErrorObject.extend({ code: z.enum(codes as [string, ...string[]]) });
  const schema = opts.betterAuth
    ? z.object({ error, code: z.string().optional(), message: z.string().optional() })
    : z.object({ error });
  return {
    description: `${STATUS_TEXT[status] ?? "Error"}: ${codes.join(", ")}`,
    content: { "application/json": { schema } },
  };
}

/** Our own errors, grouped by the status lib/errors.ts gives each code. */
function errors(codes: ErrorCode[]) {
  const byStatus = new Map<number, string[]>();
  for (const code of new Set<ErrorCode>([...codes, "internal_error"])) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries([...byStatus].map(([s, c]) => [String(s), errorResponse(s, c)]));
}

/** better-auth's bodies keep its own top-level `code` and `message` next to our `error`. */
function authErrors(statuses: number[]) {
  return Object.fromEntries(
    statuses.map((s) => [String(s), errorResponse(s, AUTH_ERRORS[s]!, { betterAuth: true })]),
  );
}

const json = (schema: z.ZodType, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** Every customer/staff endpoint: no session, a session of the wrong role. */
const SIGNED_IN: ErrorCode[] = ["unauthenticated", "forbidden"];
/** State changes: a request from another site's page. */
const POSTED: ErrorCode[] = [...SIGNED_IN, "forbidden_origin"];
/** A path parameter that is not valid percent-encoding, or names nothing of the caller's. */
const BY_ID: ErrorCode[] = ["invalid_request", "not_found"];
const DECISION_ERRORS: ErrorCode[] = [
  ...POSTED,
  ...BY_ID,
  "already_decided",
  "stale",
  "superseded",
  "expired",
];

const idParam = z.object({ id: z.string().meta({ description: "The id the API returned." }) });

const cookieAuth = [{ session: [] }];

const op = (o: ZodOpenApiOperationObject): ZodOpenApiOperationObject => ({
  security: cookieAuth,
  ...o,
});

/** An operation anyone may call: it says so (`security: []`) instead of saying nothing. */
const publicOp = (o: ZodOpenApiOperationObject): ZodOpenApiOperationObject => ({
  security: [],
  ...o,
});

export function buildOpenApiDocument() {
  return createDocument(
    {
      openapi: "3.1.0",
      info: {
        title: "Returns Desk API",
        version: "1",
        description:
          "Customer-support chat where the model proposes, the server decides and the customer " +
          'confirms. Every error is JSON `{"error":{"code","message"}}` with the status ' +
          "listed per operation. A method an endpoint does not list answers 405 " +
          "`method_not_allowed` (with `Allow`); an /api path not listed here answers 404 " +
          "`not_found`. Sign in first: the session cookie authenticates every other call. " +
          "State-changing requests sent by a browser must be same-origin (`Origin`).",
        license: { name: "MIT", identifier: "MIT" },
      },
      // The API is served by the app itself, under /api on whatever origin the app has.
      servers: [{ url: "/", description: "The app's own origin" }],
      components: {
        schemas: { ApiError: ApiErrorBody },
        securitySchemes: {
          session: {
            type: "apiKey",
            in: "cookie",
            name: "better-auth.session_token",
            description:
              "Set by POST /api/auth/sign-in/email (`__Host-` prefixed when BETTER_AUTH_URL is https).",
          },
        },
      },
      tags: [
        { name: "auth", description: "Sign in and out (better-auth); sign-up is disabled." },
        { name: "chats", description: "A customer's chats and their messages." },
        { name: "actions", description: "Confirm or cancel a proposed action." },
        { name: "audit", description: "Staff only." },
        { name: "staff", description: "Staff only." },
        { name: "meta", description: "Health and this document; no session needed." },
        {
          name: "embed",
          description:
            "The chat on a store's own site (docs/embed.md): a session the store vouches for.",
        },
        {
          name: "guests",
          description:
            "Shoppers without an account: a guest session, and an order verified by its number, " +
            "its e-mail and a one-time code mailed there (docs/embed.md, docs/api.md).",
        },
      ],
      paths: {
        "/api/auth/sign-in/email": {
          post: publicOp({
            tags: ["auth"],
            operationId: "signIn",
            summary: "Sign in with email and password (better-auth); sets the session cookie",
            description:
              "JSON only (anything else is 415), at most 8 KiB (413), the email at most 254 " +
              "characters (400 `invalid_request`). 429 `rate_limited` with `Retry-After`: too " +
              "many attempts from the client's address, or too many wrong passwords for the " +
              "account (counted before the password is checked).",
            requestBody: { content: { "application/json": { schema: SignInBody } } },
            responses: {
              "200": json(SignInResponse, "Signed in; `Set-Cookie` carries the session"),
              ...authErrors([400, 401, 403, 413, 415, 429, 500]),
            },
          }),
        },
        "/api/auth/sign-up/email": {
          post: publicOp({
            tags: ["auth"],
            operationId: "signUp",
            summary: "Self sign-up is disabled: accounts are provisioned",
            responses: {
              "400": errorResponse(400, ["email_password_sign_up_disabled", "validation_error"], {
                betterAuth: true,
              }),
              ...authErrors([403, 413, 415, 429]),
            },
          }),
        },
        "/api/auth/sign-out": {
          post: op({
            tags: ["auth"],
            operationId: "signOut",
            summary: "End the session",
            requestBody: { content: { "application/json": { schema: z.object({}) } } },
            responses: {
              "200": json(SignOutResponse, "Signed out"),
              ...authErrors([400, 403, 413, 415, 500]),
            },
          }),
        },
        "/api/embed/session": {
          post: publicOp({
            tags: ["embed"],
            operationId: "startEmbedSession",
            summary: "Start the embedded chat's session from the store's signed customer token",
            description:
              "The token is a JWT the store's server signs (HS256 with `EMBED_JWT_SECRET`, or " +
              "`EMBED_JWT_SECRET_PREVIOUS` during a rotation; RS256/ES256 from `EMBED_JWKS_URL`) " +
              "with `sub`, `email`, `name`, `exp` (at most 15 minutes ahead), `iat`, `jti` (one " +
              "use) and `aud` (`EMBED_AUDIENCE`). The account linked to `sub` is used, or created; " +
              "an email that belongs to another account is 409 `email_in_use`. Each refusal is 401 " +
              "with a code of its own and starts no session; every attempt is audited " +
              "(`embed:session`). The answer sets a partitioned session cookie " +
              "(`SameSite=None; Secure; Partitioned`). 404 `embed_disabled` without " +
              "`EMBED_ALLOWED_ORIGINS` and a secret or JWKS.",
            requestBody: { content: { "application/json": { schema: EmbedSessionRequest } } },
            responses: {
              "200": json(EmbedSessionResponse, "Signed in; `Set-Cookie` carries the session"),
              ...errors([
                "invalid_request",
                "token_malformed",
                "token_forged",
                "token_unsigned",
                "token_algorithm_not_allowed",
                "token_expired",
                "token_not_yet_valid",
                "token_lifetime_too_long",
                "token_wrong_audience",
                "token_claims_invalid",
                "token_replayed",
                "token_too_large",
                "forbidden",
                "forbidden_origin",
                "embed_disabled",
                "email_in_use",
                "payload_too_large",
                "unsupported_media_type",
                "jwks_unavailable",
              ]),
            },
          }),
          delete: publicOp({
            tags: ["embed"],
            operationId: "endEmbedSession",
            summary: "End the embedded chat's session (ReturnsDesk.shutdown()); idempotent",
            responses: {
              "200": json(EmbedSignOutResponse, "Signed out; the partitioned cookie is expired"),
              ...errors(["forbidden_origin"]),
            },
          }),
        },
        "/api/embed/guest": {
          post: publicOp({
            tags: ["embed"],
            operationId: "startEmbedGuestSession",
            summary:
              "Start the embedded chat for a store page's visitor who is not signed in there",
            description:
              "The widget booted without a token. The visitor gets a guest account of its own and " +
              "a partitioned session cookie as `POST /api/embed/session` sets; its chat turns are " +
              "offered the return policy alone: no order tool, no write tool, no hand-off. " +
              "Audited as `embed:session` with `guest: true`. 429 `rate_limited` past 10 visitor " +
              "sessions a minute from one client address; 404 `embed_disabled` as for a token.",
            requestBody: { content: { "application/json": { schema: EmbedGuestRequest } } },
            responses: {
              "200": json(EmbedGuestResponse, "A visitor's session; `Set-Cookie` carries it"),
              ...errors([
                "invalid_request",
                "forbidden_origin",
                "embed_disabled",
                "rate_limited",
                "payload_too_large",
                "unsupported_media_type",
              ]),
            },
          }),
        },
        "/api/guest/session": {
          post: publicOp({
            tags: ["guests"],
            operationId: "startGuestSession",
            summary: "“Find an order without an account”: a guest's session for /chat",
            description:
              "The same kind of session as the widget's visitor (`POST /api/embed/guest`), in a " +
              "first-party cookie: a guest account whose chat is offered the return policy until " +
              "it verifies an order. It lasts at most a day. 429 `rate_limited` past 10 guest " +
              "sessions a minute from one client address (an IPv6 client by its /64), or past " +
              "`EMBED_GUEST_SESSIONS_PER_MINUTE` from all addresses together.",
            requestBody: { content: { "application/json": { schema: GuestSessionRequest } } },
            responses: {
              "200": json(GuestSessionResponse, "A guest's session; `Set-Cookie` carries it"),
              ...errors([
                "invalid_request",
                "forbidden_origin",
                "rate_limited",
                "payload_too_large",
                "unsupported_media_type",
              ]),
            },
          }),
        },
        "/api/guest/verification": {
          post: op({
            tags: ["guests"],
            operationId: "requestGuestVerification",
            summary: "Mail a one-time code for an order placed without an account",
            description:
              'Always 202 `{"sent": true}` after the same work, whether or not the order was ' +
              "placed with this e-mail (compared trimmed, NFKC-folded, lower-case): if it was, a " +
              "6-digit code is on its way there, valid 10 minutes, bound to this session and this " +
              "order. 429 `rate_limited` past 3 codes per order per hour, 5 per session per hour " +
              "or 10 per client address (an IPv6 client by its /64) per hour. With " +
              "`STORE_BACKEND=medusa` any order of the store can be verified, a registered " +
              "customer's too (each carries its e-mail). Guest sessions only (403 `forbidden` for " +
              "an account).",
            requestBody: {
              content: { "application/json": { schema: GuestVerificationRequest } },
            },
            responses: {
              "202": json(GuestVerificationResponse, "Sent, if the order and the e-mail match"),
              ...errors([
                ...POSTED,
                "invalid_request",
                "rate_limited",
                "payload_too_large",
                "unsupported_media_type",
              ]),
            },
          }),
        },
        "/api/guest/verification/confirm": {
          post: op({
            tags: ["guests"],
            operationId: "confirmGuestVerification",
            summary: "The code from the mail: act on that order alone for 30 minutes",
            description:
              "Checks the code against this session's newest code for this order. 401 " +
              "`code_invalid`: not that code (or no code of this session for this order); the " +
              "third wrong try kills the code. 410 `code_expired`: past its 10 minutes, used " +
              "already, or killed. 429 `rate_limited`: past 10 tries per session in 10 minutes.",
            requestBody: {
              content: { "application/json": { schema: GuestVerificationConfirm } },
            },
            responses: {
              "200": json(GuestVerifiedResponse, "Verified"),
              ...errors([
                ...POSTED,
                "invalid_request",
                "code_invalid",
                "code_expired",
                "rate_limited",
                "payload_too_large",
                "unsupported_media_type",
              ]),
            },
          }),
        },
        "/api/health": {
          get: publicOp({
            tags: ["meta"],
            operationId: "health",
            summary: "Liveness: the database and which model answers (no auth)",
            responses: {
              "200": json(HealthResponse, "Healthy"),
              "503": json(HealthResponse, "The database does not answer"),
              ...errors([]),
            },
          }),
        },
        "/api/openapi.json": {
          get: publicOp({
            tags: ["meta"],
            operationId: "openApiDocument",
            summary: "This document (no auth)",
            responses: {
              "200": {
                description: "OpenAPI 3.1",
                content: { "application/json": { schema: z.looseObject({ openapi: z.string() }) } },
              },
              ...errors([]),
            },
          }),
        },
        "/api/chats": {
          get: op({
            tags: ["chats"],
            operationId: "listChats",
            summary: "The caller's own chats, newest first (at most 100)",
            responses: { "200": json(ChatListResponse, "Chats"), ...errors(SIGNED_IN) },
          }),
          post: op({
            tags: ["chats"],
            operationId: "createChat",
            summary: "Start a new chat; supersedes pending actions in the caller's other chats",
            description:
              "At most `CHAT_RATE_LIMIT_PER_MINUTE` new chats per customer per minute (default " +
              "20, counted apart from messages): beyond it 429 `rate_limited` with " +
              "`Retry-After` and `retryAfterSeconds`, and no chat is created.",
            responses: {
              "201": json(ChatCreatedResponse, "Created"),
              ...errors([...POSTED, "rate_limited"]),
            },
          }),
        },
        "/api/chats/{id}": {
          get: op({
            tags: ["chats"],
            operationId: "getChat",
            summary: "One chat: its messages and the action waiting for a decision, if any",
            requestParams: { path: idParam },
            responses: {
              "200": json(ChatViewResponse, "The chat"),
              ...errors([...SIGNED_IN, ...BY_ID]),
            },
          }),
        },
        "/api/chats/{id}/messages": {
          post: op({
            tags: ["chats"],
            operationId: "sendMessage",
            summary: "One chat turn, streamed",
            description:
              "Answers `text/event-stream`: the AI SDK UI message stream (v1), `data: <json>` " +
              "events ending with `data: [DONE]`. When the turn ends with a proposed write, one " +
              'event is `{"type":"data-pending-action","data":PendingAction}`. A model failure ' +
              "streams an `error` event and stores nothing. Refusals (below) happen before the " +
              "stream starts: nothing is stored and no model is called. In a chat a person has " +
              "taken over (`chat.handoff` in GET /api/chats/{id}) no model is called either: the " +
              'message is stored and the stream is one note, `{"type":"data-handoff","data":' +
              '{"status":"waiting"}}` and its text. When the model hands the chat over ' +
              "(`request_human`), the turn ends with the same note.",
            requestParams: { path: idParam },
            requestBody: { content: { "application/json": { schema: sendMessageBody } } },
            responses: {
              "200": {
                description: "The UI message stream",
                headers: z.object({
                  "x-vercel-ai-ui-message-stream": z
                    .literal("v1")
                    .meta({ description: "The stream protocol version" }),
                }),
                content: {
                  "text/event-stream": {
                    schema: z.string().meta({ description: "Server-sent events, one JSON each" }),
                  },
                },
              },
              ...errors([
                ...POSTED,
                ...BY_ID,
                "action_pending",
                "turn_in_progress",
                "message_too_long",
                "payload_too_large",
                "unsupported_media_type",
                "rate_limited",
                "overloaded",
              ]),
            },
          }),
        },
        "/api/actions/{id}": {
          get: op({
            tags: ["actions"],
            operationId: "getAction",
            summary: "One action with the state of its external effects",
            description:
              "The customer's own action, or any action for staff; anyone else's reads as unknown " +
              "(404). `effects` lists what the confirmed action still had to do outside the " +
              "database (a cancellation's refund) and how far each got; see docs/effects.md.",
            requestParams: { path: idParam },
            responses: {
              "200": json(ActionDetail, "The action and its effects"),
              ...errors([...SIGNED_IN, ...BY_ID]),
            },
          }),
        },
        "/api/actions/{id}/confirm": {
          post: op({
            tags: ["actions"],
            operationId: "confirmAction",
            summary: "Execute exactly the stored arguments, once (any body is ignored)",
            description:
              "`audit` is the status of the audit record this decision wrote (`success`), the " +
              "customer's own; a 500 means nothing was written and the action is `failed`.",
            requestParams: { path: idParam },
            responses: {
              "200": json(
                ConfirmResponse,
                "Executed; or, for an action with requiresApproval, now `awaiting_approval` (result null, nothing executed)",
              ),
              ...errors(DECISION_ERRORS),
            },
          }),
        },
        "/api/actions/{id}/revise": {
          post: op({
            tags: ["actions"],
            operationId: "reviseAction",
            summary: "Edit a pending proposal's editable fields (owner only; the model cannot)",
            description:
              `Only the fields the tool declares (${EDITABLE_FIELDS_TEXT}); ` +
              "anything else, the order included, is 400 `invalid_request`. The result is validated " +
              "by the tool's schema and planned and checked by the policy again (409 `conflict` when " +
              "it no longer holds), then stored as a new pending action with a new hash; the old " +
              "one ends `superseded`, audited with the reason `revised`. At most 5 revisions per " +
              "chain (409 `revision_limit`). 429 `rate_limited` with `Retry-After` above 10 edits " +
              "a minute per customer, valid or not; nothing changes.",
            requestParams: { path: idParam },
            requestBody: { content: { "application/json": { schema: ReviseRequestSchema } } },
            responses: {
              "200": json(ReviseResponse, "The new pending action"),
              ...errors([
                ...DECISION_ERRORS,
                "conflict",
                "revision_limit",
                "payload_too_large",
                "unsupported_media_type",
                "rate_limited",
              ]),
            },
          }),
        },
        "/api/staff/approvals": {
          get: op({
            tags: ["staff"],
            operationId: "listApprovals",
            summary: "Actions awaiting staff approval, oldest confirm first (staff only)",
            responses: {
              "200": json(ApprovalsResponse, "The queue"),
              ...errors(SIGNED_IN),
            },
          }),
        },
        "/api/staff/actions/{id}/approve": {
          post: op({
            tags: ["staff"],
            operationId: "approveAction",
            summary:
              "Approve an action awaiting approval: executes exactly the stored arguments, once (staff only; a customer gets 403)",
            requestParams: { path: idParam },
            responses: {
              "200": json(ApproveResponse, "Executed; the approver is recorded"),
              ...errors([...DECISION_ERRORS, "conflict", "own_action", "rate_limited"]),
            },
          }),
        },
        "/api/staff/actions/{id}/reject": {
          post: op({
            tags: ["staff"],
            operationId: "rejectAction",
            summary:
              "Reject an action awaiting approval, with a reason the customer reads (staff only)",
            requestParams: { path: idParam },
            requestBody: { content: { "application/json": { schema: RejectRequestSchema } } },
            responses: {
              "200": json(RejectResponse, "Rejected; nothing was executed"),
              ...errors([
                ...DECISION_ERRORS,
                "conflict",
                "payload_too_large",
                "unsupported_media_type",
                "rate_limited",
              ]),
            },
          }),
        },
        "/api/actions/{id}/cancel": {
          post: op({
            tags: ["actions"],
            operationId: "cancelAction",
            summary: "Drop the proposal without running anything (any body is ignored)",
            requestParams: { path: idParam },
            responses: {
              "200": json(CancelResponse, "Cancelled; `audit.status` is `cancelled`"),
              ...errors(DECISION_ERRORS),
            },
          }),
        },
        "/api/audit": {
          get: op({
            tags: ["audit"],
            operationId: "listAuditEvents",
            summary: "Audit events, newest first, keyset-paginated (staff only)",
            requestParams: { query: auditListParams },
            responses: {
              "200": json(AuditPageResponse, "One page"),
              ...errors([...SIGNED_IN, "invalid_request"]),
            },
          }),
        },
        "/api/audit/export": {
          get: op({
            tags: ["audit"],
            operationId: "exportAuditEvents",
            summary: "Every matching event as CSV, streamed (staff only)",
            requestParams: { query: auditFilterParams },
            responses: {
              "200": {
                description: "CSV with a header row; cells are formula-safe",
                content: { "text/csv": { schema: z.string() } },
              },
              ...errors([...SIGNED_IN, "invalid_request"]),
            },
          }),
        },
        "/api/staff/chats/{id}": {
          get: op({
            tags: ["staff"],
            operationId: "getTranscript",
            summary: "Any customer's chat, read-only (staff only)",
            requestParams: { path: idParam },
            responses: {
              "200": json(StaffTranscriptResponse, "The transcript"),
              ...errors([...SIGNED_IN, ...BY_ID]),
            },
          }),
        },
        "/api/staff/chats/{id}/triage": {
          post: op({
            tags: ["staff"],
            operationId: "triageChat",
            summary:
              "Structured analysis of a chat now: category, urgency, summary, next step (staff only)",
            requestParams: { path: idParam },
            responses: {
              "200": json(TriageResponse, "The stored triage"),
              ...errors([...POSTED, ...BY_ID, "rate_limited", "model_unavailable"]),
            },
          }),
        },
        "/api/staff/handoffs": {
          get: op({
            tags: ["staff"],
            operationId: "listHandoffs",
            summary:
              "Chats a person has taken over: waiting for a first staff reply or active, longest waiting first (staff only)",
            responses: {
              "200": json(HandoffQueueResponse, "The handoff queue"),
              ...errors(SIGNED_IN),
            },
          }),
        },
        "/api/staff/chats/{id}/messages": {
          post: op({
            tags: ["staff"],
            operationId: "replyInChat",
            summary:
              "Reply to the customer in a handed-off chat, as role staff with your name (staff only; audited)",
            description:
              "The text is normalised and limited like a customer's message (2,000 characters, no " +
              "NUL or other control characters, not empty). The handoff becomes `active`. 409 " +
              "`not_handed_off` when the chat is not handed off (never was, or was released).",
            requestParams: { path: idParam },
            requestBody: { content: { "application/json": { schema: sendMessageBody } } },
            responses: {
              "201": json(StaffReplyResponse, "The stored staff message"),
              ...errors([
                ...POSTED,
                ...BY_ID,
                "not_handed_off",
                "message_too_long",
                "payload_too_large",
                "unsupported_media_type",
                "rate_limited",
              ]),
            },
          }),
        },
        "/api/staff/chats/{id}/release": {
          post: op({
            tags: ["staff"],
            operationId: "releaseChat",
            summary: "Hand a chat back to the assistant (staff only; audited; any body is ignored)",
            requestParams: { path: idParam },
            responses: {
              "200": json(ReleaseResponse, "Released: the assistant answers again"),
              ...errors([...POSTED, ...BY_ID, "not_handed_off", "rate_limited"]),
            },
          }),
        },
        "/api/staff/orders/{id}/ship": {
          post: op({
            tags: ["staff"],
            operationId: "markOrderShipped",
            summary:
              "Mark a processing order shipped, as the warehouse would (staff only; audited). A pending cancellation of it becomes stale",
            requestParams: { path: idParam },
            responses: {
              "200": json(ShipOrderResponse, "The order, now shipped"),
              ...errors([...POSTED, ...BY_ID, "conflict"]),
            },
          }),
        },
        "/api/staff/returns/{requestId}/receive": {
          post: op({
            tags: ["staff"],
            operationId: "markReturnReceived",
            summary:
              "Mark a return's parcel received (staff only; audited with who and when). Schedules its refund through the payment provider, with its own idempotency key; the customer is emailed when it succeeds. A second call is 409 with the return as it stands",
            requestParams: {
              path: z.object({
                requestId: z.string().meta({ description: "The return request's id (RR-…)." }),
              }),
            },
            responses: {
              "200": json(ReceiveReturnResponse, "The return, now received, with its refund"),
              ...errors([...POSTED, ...BY_ID, "conflict", "rate_limited"]),
            },
          }),
        },
        "/api/staff/candidate": {
          get: op({
            tags: ["staff"],
            operationId: "getCandidateReport",
            summary:
              "The candidate model profile against the live one in shadow: agreement on tools and arguments, writes proposed on each side, policy refusals, candidate errors, latency and token ratios, and the newest comparisons (staff only)",
            responses: {
              "200": json(CandidateReportResponse, "The shadow comparison"),
              ...errors(SIGNED_IN),
            },
          }),
        },
        "/api/staff/candidate/rollback": {
          post: op({
            tags: ["staff"],
            operationId: "rollbackCandidate",
            summary:
              "The canary's kill switch: the current candidate is rolled back and every new turn goes to the live profile (staff only; audited; raises an alert). Again: nothing changes. 409 with no candidate configured",
            requestBody: { content: { "application/json": { schema: RollbackBody } } },
            responses: {
              "200": json(CandidateReportResponse, "The candidate report, with its rollback"),
              ...errors([
                ...POSTED,
                "conflict",
                "invalid_request",
                "payload_too_large",
                "unsupported_media_type",
                "rate_limited",
              ]),
            },
          }),
        },
        "/api/staff/drift": {
          get: op({
            tags: ["staff"],
            operationId: "getDriftReport",
            summary:
              "The drift corridor: each profile's closed windows (DRIFT_WINDOW_SECONDS) with their signals, corridors (median ± 3·MAD of the baseline windows) and breaches, and the newest alerts (staff only)",
            responses: {
              "200": json(DriftResponse, "The windows, corridors, breaches and alerts"),
              ...errors(SIGNED_IN),
            },
          }),
        },
        "/api/staff/alerts/{id}/acknowledge": {
          post: op({
            tags: ["staff"],
            operationId: "acknowledgeAlert",
            summary:
              "Acknowledge an alert: its banner leaves the staff pages (staff only; audited; any body is ignored). Again: answers it as it is",
            requestParams: { path: idParam },
            responses: {
              "200": json(z.object({ alert: AlertView }), "The alert, acknowledged"),
              ...errors([...POSTED, ...BY_ID]),
            },
          }),
        },
        "/api/staff/effects": {
          get: op({
            tags: ["staff"],
            operationId: "listStaffEffects",
            summary:
              "The staff work queue: effects in these statuses, newest first, with the action, the customer, the kind, the attempts and the last error (staff only)",
            requestParams: { query: StaffEffectsQuery },
            responses: {
              "200": json(StaffEffectsResponse, "The effects, newest first (at most 200)"),
              ...errors([...SIGNED_IN, "invalid_request"]),
            },
          }),
        },
        "/api/staff/effects/{id}/retry": {
          post: op({
            tags: ["staff"],
            operationId: "retryEffect",
            summary:
              "Send a failed or needs_attention effect back to the relay: pending, a fresh attempt budget, the same idempotency key (staff only; audited). 409 in any other status, or when it changed since `updatedAt`",
            requestParams: { path: idParam },
            requestBody: { content: { "application/json": { schema: RetryEffectBody } } },
            responses: {
              "200": json(StaffEffectResponse, "The effect, pending again"),
              ...errors([
                ...POSTED,
                ...BY_ID,
                "conflict",
                "invalid_request",
                "payload_too_large",
                "unsupported_media_type",
                "rate_limited",
              ]),
            },
          }),
        },
        "/api/staff/effects/{id}/resolve": {
          post: op({
            tags: ["staff"],
            operationId: "resolveEffect",
            summary:
              "Settle a failed or needs_attention effect by hand, with a note: it ends resolved and the customer's card says our team settled it (staff only; audited). A second resolve is 409",
            requestParams: { path: idParam },
            requestBody: { content: { "application/json": { schema: ResolveEffectBody } } },
            responses: {
              "200": json(StaffEffectResponse, "The effect, resolved"),
              ...errors([
                ...POSTED,
                ...BY_ID,
                "conflict",
                "payload_too_large",
                "unsupported_media_type",
                "rate_limited",
              ]),
            },
          }),
        },
      },
    },
    {},
  );
}

let cached: ReturnType<typeof buildOpenApiDocument> | undefined;

/** Built once per process: the schemas never change while it runs. */
export function openApiDocument(): ReturnType<typeof buildOpenApiDocument> {
  cached ??= buildOpenApiDocument();
  return cached;
}
