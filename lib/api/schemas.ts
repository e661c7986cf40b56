/**
 * The response shapes of the HTTP API (docs/api.md), declared once in zod. The route handlers build
 * values of the inferred types, `lib/api/openapi.ts` renders these same schemas into the
 * OpenAPI document, and the contract tests validate real responses against that document.
 * Request schemas stay next to the code that parses them (message body, audit query).
 *
 * Shapes a tool owns (arguments, plan, result) come from the tool registry, so a new write tool
 * shows up in the document without being named here.
 */
import { z } from "zod";
import {
  ACTION_STATUSES,
  EFFECT_CANARY_STATUSES,
  EFFECT_STATUSES,
  MESSAGE_ROLES,
  OUTCOME_STATUSES,
} from "@/db/constants";
import { AUDIT_STATUSES } from "@/db/schema";
import {
  PendingActionPartSchema,
  type PendingActionPart as PendingActionPartType,
  WriteResultSchema,
} from "@/lib/api/parts";
import { STORED_TRIAGE } from "@/lib/api/triage";
import { EFFECT_KINDS } from "@/lib/effects/kinds";
import { ERROR_STATUS, type ErrorCode } from "@/lib/errors";
import { freeTextSchema } from "@/lib/text/free-text";
import { TOOLS } from "@/lib/tools/registry";
import type { WriteResult, WriteTool } from "@/lib/tools/types";
import { ActionViewSchema } from "@/lib/tools/view";

const isoDateTime = z.iso.datetime({ offset: true });

/* ---------------------------------------------------------------- errors */

export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/**
 * `{"error":{"code","message"}}` plus the extra fields some codes carry. Kept open: a client must
 * not break on a field it does not know.
 */
export const ApiErrorObject = z
  .looseObject({
    code: z.string().meta({ description: "Stable snake_case code; see each response." }),
    message: z.string().meta({ description: "Human text; may change, do not parse it." }),
    actionId: z
      .string()
      .optional()
      .meta({ description: "action_pending: the action that waits for a decision." }),
    status: z
      .enum(ACTION_STATUSES)
      .optional()
      .meta({ description: "already_decided, stale: the action's current status." }),
    retryAfterSeconds: z
      .number()
      .int()
      .optional()
      .meta({ description: "rate_limited, overloaded: same as the Retry-After header." }),
  })
  .meta({ id: "ApiErrorObject" });

export const ApiErrorBody = z.object({ error: ApiErrorObject }).meta({ id: "ApiError" });
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

/* ---------------------------------------------------------------- health */

export const HealthResponse = z
  .object({
    status: z.enum(["ok", "degraded"]),
    db: z.enum(["ok", "error"]),
    model: z.object({ provider: z.enum(["offline", "openai"]), id: z.string() }),
  })
  .meta({ id: "Health" });
export type HealthResponse = z.infer<typeof HealthResponse>;

/* ---------------------------------------------------------------- chats */

export const ChatSummary = z
  .object({ id: z.string(), createdAt: isoDateTime, title: z.string().nullable() })
  .meta({ id: "ChatSummary" });
export type ChatSummary = z.infer<typeof ChatSummary>;

export const ChatCreatedResponse = z.object({ chat: ChatSummary });
export const ChatListResponse = z.object({ chats: z.array(ChatSummary) });

type AnyWriteTool = WriteTool<string, z.ZodType, z.ZodType<WriteResult>, z.ZodType>;
const WRITE_TOOLS = TOOLS.filter((t): t is (typeof TOOLS)[number] & AnyWriteTool => {
  return t.access === "write";
}) as AnyWriteTool[];

/** One union member per registered write tool: its name, its arguments and its plan. */
function pendingActionFor(tool: AnyWriteTool) {
  return z.object({
    id: z.string(),
    chatId: z.string(),
    tool: z.literal(tool.name),
    arguments: tool.args,
    plan: tool.planSchema,
    status: z.enum(ACTION_STATUSES),
    createdAt: isoDateTime,
    expiresAt: isoDateTime,
    decidedAt: isoDateTime.nullable(),
    requiresApproval: z.boolean().optional().meta({
      description:
        "Above APPROVAL_THRESHOLD_MINOR; Confirm then only moves it to `awaiting_approval` and staff decide.",
    }),
    revision: z.number().int().optional().meta({
      description: "How many times the customer edited this proposal's chain (at most 5).",
    }),
    revisionOf: z.string().nullable().optional().meta({
      description: "The action this revision replaced (now `superseded`, reason `revised`).",
    }),
    confirmedAt: isoDateTime.nullable().optional().meta({
      description: "When the customer confirmed an action that needs approval.",
    }),
    rejectReason: z.string().nullable().optional().meta({
      description: "Staff's reason when the action is `rejected`.",
    }),
    edit: PendingActionPartSchema.shape.edit,
    /** Once executed: what the write returned. */
    result: tool.result.nullable(),
    /** The action as its tool describes it, in the chat's language (what the card shows). */
    view: ActionViewSchema,
  });
}

function unionOf(schemas: z.ZodType[]): z.ZodType {
  const [first, ...rest] = schemas;
  if (!first) throw new Error("the registry has no write tool");
  return rest.length === 0 ? first : z.union([first, ...rest] as [z.ZodType, ...z.ZodType[]]);
}

export const PendingAction = unionOf(WRITE_TOOLS.map(pendingActionFor)).meta({
  id: "PendingAction",
  description:
    "A proposed write that waits for the customer's decision (one member per write tool).",
});

/** What a confirmed write returned; each write tool declares its own result. */
export const ActionResult = unionOf(WRITE_TOOLS.map((t) => t.result)).meta({ id: "ActionResult" });

export const ActionOutcome = z
  .object({
    actionId: z.string(),
    status: z.enum(OUTCOME_STATUSES),
    result: WriteResultSchema.nullish(),
  })
  .meta({ id: "ActionOutcome" });

const TextPart = z.looseObject({ type: z.literal("text"), text: z.string() });
const PendingActionPart = z.looseObject({
  type: z.literal("data-pending-action"),
  data: PendingAction,
});
const ActionOutcomePart = z.looseObject({
  type: z.literal("data-action-outcome"),
  data: ActionOutcome,
});
/** Tool calls, step boundaries and whatever else the AI SDK records. */
const OtherPart = z.looseObject({ type: z.string() });

export const UIMessage = z
  .looseObject({
    id: z.string(),
    role: z.enum(MESSAGE_ROLES).meta({
      description:
        "staff: a support person's reply in a handed-off chat; its data-staff part has their name.",
    }),
    parts: z.array(z.union([TextPart, PendingActionPart, ActionOutcomePart, OtherPart])),
  })
  .meta({
    id: "UIMessage",
    description: "An AI SDK UIMessage as stored: confirm cards carry the action's current state.",
  });

/** A chat a person has taken over (lib/chat/handoff); null in ChatView when the assistant answers. */
export const HandoffView = z
  .object({
    status: z.enum(["waiting", "active"]).meta({
      description: "waiting: no staff reply yet; active: a staff member has replied.",
    }),
    since: isoDateTime.meta({ description: "When the customer asked for a person." }),
    staff: z
      .object({ name: z.string() })
      .optional()
      .meta({ description: "The staff member who replied last (absent while waiting)." }),
  })
  .meta({ id: "Handoff" });
export type HandoffView = z.infer<typeof HandoffView>;

export const ChatViewResponse = z
  .object({
    chat: ChatSummary.extend({ handoff: HandoffView.nullable() }),
    messages: z.array(UIMessage),
    pendingAction: PendingAction.nullable(),
  })
  .meta({ id: "ChatView" });

/* ---------------------------------------------------------------- decisions */

/**
 * The audit record the decision left, as far as the customer may see it: the status of their own
 * decision (`success`, `cancelled`, ...) and when. Not the event id or its stored details.
 */
export const DecisionAudit = z
  .object({ status: z.enum(AUDIT_STATUSES), at: isoDateTime })
  .meta({ id: "DecisionAudit" });
export type DecisionAudit = z.infer<typeof DecisionAudit>;

export const ConfirmResponse = z
  .object({
    action: PendingAction,
    result: ActionResult.nullable().meta({
      description: "Null when the action now awaits staff approval (nothing was executed).",
    }),
    audit: DecisionAudit.nullable(),
  })
  .meta({ id: "ConfirmResponse" });
export const CancelResponse = z
  .object({ action: PendingAction, audit: DecisionAudit.nullable() })
  .meta({ id: "CancelResponse" });

/* ---------------------------------------------------------------- effects */

export const EffectView = z
  .object({
    id: z.string(),
    kind: z.enum(EFFECT_KINDS).meta({
      description:
        "payment.refund, a customer mail (mail.*), warehouse.address_changed, warehouse.event (a signed webhook a write tool composed, e.g. warehouse.items_exchanged), a write at the connected store (STORE_BACKEND=medusa, docs/stores.md): store.cancel_order, store.create_return, store.receive_return (staff's Mark received: received and refunded at the store), store.change_address, store.exchange_items (a store order's exchange after delivery or order edit before it ships, and a cheaper variant's difference refunded there); action.replan (the fresh plan after a store write failed with order_changed_at_store: a new proposal or the reason in the same chat); or alert.raised (an operational alert for ALERT_WEBHOOK_URL; its actionId is the alert's id: docs/operations.md).",
    }),
    status: z.enum(EFFECT_STATUSES).meta({
      description:
        "pending (waiting for the relay, also between retries), in_flight (a relay is calling the provider), succeeded, failed (the provider refused for good), needs_attention (attempts or time ran out with the outcome unknown: staff act), resolved (staff settled it).",
    }),
    attempts: z.number().int(),
    lastErrorCode: z.string().nullable(),
    providerRef: z.string().nullable().meta({
      description:
        "The provider's id: re_… (a Stripe refund), rl_… (the ledger's), msg_AC-… (a webhook), order_… (the store's order a store.cancel_order cancelled or a store.change_address changed), return_… (the store's return), ref_… (the store's refund), oexc_… (the store's exchange), ordli_… (the new line of a store's order edit), for action.replan the new action's id (or replan-…, its chat message, when nothing was proposed).",
    }),
    updatedAt: isoDateTime,
  })
  .meta({
    id: "Effect",
    description: "An external effect of a confirmed action (docs/effects.md).",
  });
export type EffectView = z.infer<typeof EffectView>;

/** GET /api/actions/{id}: the action as its card shows it, plus its effects. */
export const ActionDetail = unionOf(
  WRITE_TOOLS.map((t) => pendingActionFor(t).extend({ effects: z.array(EffectView) })),
).meta({ id: "ActionDetail" });
export type ActionDetail = PendingActionPartType & { effects: EffectView[] };

/* ---------------------------------------------------------------- audit */

export const AuditEvent = z
  .object({
    id: z.string(),
    at: isoDateTime,
    userId: z.string().nullable(),
    actorId: z.string().nullable().meta({
      description: "The staff member who approved or rejected; null otherwise.",
    }),
    chatId: z.string().nullable(),
    actionId: z.string().nullable(),
    toolCallId: z.string().nullable(),
    tool: z.string(),
    access: z.enum(["read", "write"]).nullable(),
    status: z.enum(AUDIT_STATUSES),
    errorCode: z.string().nullable(),
    durationMs: z.number().int().nullable(),
    arguments: z.unknown(),
    result: z.unknown().optional(),
    promptVersion: z.string().nullable(),
    model: z.string().nullable(),
  })
  .meta({ id: "AuditEvent" });
export type AuditEvent = z.infer<typeof AuditEvent>;

export const AuditPageResponse = z
  .object({ events: z.array(AuditEvent), nextCursor: z.string().nullable() })
  .meta({ id: "AuditPage" });

/* ---------------------------------------------------------------- staff */

const TranscriptItem = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("text"), text: z.string() }),
  z.object({
    kind: z.literal("tool"),
    tool: z.string(),
    state: z.string(),
    input: z.unknown(),
    output: z.unknown(),
    errorText: z.string().nullable(),
  }),
  z.object({
    kind: z.literal("proposal"),
    actionId: z.string(),
    tool: z.string(),
    arguments: z.unknown(),
  }),
  z.object({ kind: z.literal("outcome"), actionId: z.string(), status: z.string() }),
  z.object({ kind: z.literal("staff"), name: z.string() }),
  z.object({ kind: z.literal("other"), type: z.string() }),
]);

export const StaffTranscriptResponse = z
  .object({
    chat: z.object({
      id: z.string(),
      title: z.string().nullable(),
      createdAt: isoDateTime,
      userId: z.string(),
      embedOrigin: z
        .string()
        .nullable()
        .meta({ description: "The store page the chat was embedded on; null on our own site." }),
      embedOriginVouched: z.boolean().meta({
        description:
          "True when a store's token started the session: the store vouched for the customer and the page. False for a visitor (guest): `embedOrigin` is then only what its browser said, and nothing verified it.",
      }),
    }),
    customer: z
      .object({
        id: z.string(),
        email: z.string(),
        name: z.string(),
        storeCustomerId: z
          .string()
          .nullable()
          .meta({ description: "The store's own id for this customer (the token's sub)." }),
      })
      .nullable(),
    messages: z.array(
      z.object({
        id: z.string(),
        seq: z.number().int(),
        role: z.enum(MESSAGE_ROLES),
        at: isoDateTime,
        model: z.string().nullable(),
        promptVersion: z.string().nullable(),
        items: z.array(TranscriptItem),
      }),
    ),
    truncated: z.boolean(),
    actions: z.array(
      z.object({
        id: z.string(),
        tool: z.string(),
        arguments: z.unknown(),
        plan: z.unknown(),
        status: z.enum(ACTION_STATUSES),
        result: z.unknown(),
        errorCode: z.string().nullable(),
        createdAt: isoDateTime,
        expiresAt: isoDateTime,
        decidedAt: isoDateTime.nullable(),
        decidedBy: z.string().nullable(),
      }),
    ),
    triage: STORED_TRIAGE.nullable(),
  })
  .meta({ id: "StaffTranscript" });
export type StaffTranscriptResponse = z.infer<typeof StaffTranscriptResponse>;

/** GET /api/staff/handoffs: the chats waiting for or talking to a person, longest waiting first. */
export const HandoffQueueResponse = z
  .object({
    handoffs: z.array(
      HandoffView.extend({
        chatId: z.string(),
        chatTitle: z.string().nullable(),
        customer: z.object({ name: z.string(), email: z.string() }).nullable(),
      }),
    ),
  })
  .meta({ id: "HandoffQueue" });
export type HandoffQueueResponse = z.infer<typeof HandoffQueueResponse>;

/** POST /api/staff/chats/{id}/messages: the stored staff message and the chat's handoff now. */
export const StaffReplyResponse = z
  .object({ message: UIMessage, handoff: HandoffView })
  .meta({ id: "StaffReplyResponse" });
export type StaffReplyResponse = z.infer<typeof StaffReplyResponse>;

/** POST /api/staff/chats/{id}/release: the assistant answers the chat again. */
export const ReleaseResponse = z.object({ handoff: z.null() }).meta({ id: "ReleaseResponse" });

export const TriageResponse = z.object({ triage: STORED_TRIAGE }).meta({ id: "TriageResponse" });

/** POST /api/staff/orders/{id}/ship: the order after staff marked it shipped. */
export const ShipOrderResponse = z
  .object({
    order: z.object({
      id: z.string(),
      status: z.literal("shipped"),
      version: z.number().int(),
      shippedAt: z.iso.datetime(),
    }),
  })
  .meta({ id: "ShipOrderResponse" });
export type ShipOrderResponse = z.infer<typeof ShipOrderResponse>;

/* ---------------------------------------------------------------- returns and the effects queue */

/** Where a return stands for staff: the customer asked, the parcel arrived, the money went back. */
export const RETURN_STATES = ["requested", "received", "refunded"] as const;

export const StaffReturn = z
  .object({
    id: z.string().meta({ example: "RT-7Q2M9K4X" }),
    orderId: z.string(),
    actionId: z.string().nullable(),
    state: z.enum(RETURN_STATES).meta({
      description:
        "requested (the customer confirmed it), received (staff marked the parcel received; its refund is under way or needs staff), refunded (the refund succeeded, or staff settled it by hand).",
    }),
    receivedAt: isoDateTime.nullable(),
    receivedBy: z
      .string()
      .nullable()
      .meta({ description: "The staff user who marked it received." }),
    refund: z
      .object({
        amount: z.number().int().meta({ description: "Minor units." }),
        currency: z.string(),
        status: z.enum(EFFECT_STATUSES).nullable().meta({
          description: "The refund effect's status; null until the return is received.",
        }),
        effectId: z.string().nullable(),
      })
      .meta({ description: "The return's refund, scheduled when the parcel is received." }),
  })
  .meta({ id: "StaffReturn" });
export type StaffReturn = z.infer<typeof StaffReturn>;

/** POST /api/staff/returns/{requestId}/receive */
export const ReceiveReturnResponse = z
  .object({ return: StaffReturn })
  .meta({ id: "ReceiveReturnResponse" });
export type ReceiveReturnResponse = z.infer<typeof ReceiveReturnResponse>;

/** The statuses of the staff work queue (GET /api/staff/effects?status=…). */
export const QUEUE_STATUS = z.enum(["failed", "needs_attention", "resolved"]);

export const StaffEffectsQuery = z.strictObject({
  status: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const list = (v ?? "failed,needs_attention").split(",").map((s) => s.trim());
      const parsed = z.array(QUEUE_STATUS).min(1).max(3).safeParse(list);
      if (!parsed.success) {
        ctx.addIssue({
          code: "custom",
          message: "status must be failed, needs_attention or resolved (comma-separated)",
        });
        return z.NEVER;
      }
      return [...new Set(parsed.data)];
    })
    .meta({
      description:
        "Comma-separated: failed, needs_attention, resolved. Default failed,needs_attention (the queue).",
      example: "failed,needs_attention",
    }),
});

export const StaffEffect = EffectView.extend({
  actionId: z.string(),
  tool: z.string().nullable().meta({ description: "The action's tool, e.g. cancel_order." }),
  customer: z
    .object({ id: z.string(), email: z.string().nullable() })
    .nullable()
    .meta({ description: "The action's customer; null when the action is gone." }),
  chatId: z.string().nullable(),
  createdAt: isoDateTime,
  settledAt: isoDateTime.nullable(),
  resolutionNote: z.string().nullable(),
  resolvedBy: z.string().nullable(),
}).meta({ id: "StaffEffect", description: "An effect as the staff queue lists it." });
export type StaffEffect = z.infer<typeof StaffEffect>;

/** The integration canary of one provider configuration (docs/effects.md). */
export const EffectCanary = z
  .object({
    kind: z.enum(EFFECT_KINDS),
    provider: z.string().meta({ description: "stripe, warehouse_webhook or medusa." }),
    fingerprint: z.string().meta({
      description:
        "The configuration (key, base URL) as HMAC-SHA256 keyed with the server's secret, truncated to 16 hex digits: it tells configurations apart and reveals nothing of them.",
      example: "3f9c0a1b2d4e5f60",
    }),
    status: z.enum(EFFECT_CANARY_STATUSES).meta({
      description:
        "running (effects of this kind go one at a time, each reconciled before the next), passed (`required` were), held (one failed: the rest of this kind wait as needs_attention with last error canary_held; retrying the failed effect runs the canary again).",
    }),
    required: z.number().int().meta({ description: "EFFECTS_CANARY_COUNT when it started." }),
    confirmed: z.number().int().meta({ description: "Effects reconciled so far." }),
    currentEffectId: z
      .string()
      .nullable()
      .meta({ description: "The effect released now and not yet reconciled." }),
    failedEffectId: z
      .string()
      .nullable()
      .meta({ description: "The effect whose failure held the canary." }),
    lastErrorCode: z.string().nullable(),
    startedAt: isoDateTime,
    settledAt: isoDateTime.nullable(),
  })
  .meta({ id: "EffectCanary" });
export type EffectCanary = z.infer<typeof EffectCanary>;

export const StaffEffectsResponse = z
  .object({
    effects: z.array(StaffEffect),
    canaries: z.array(EffectCanary).meta({
      description: "The integration canaries, newest first (at most 20): running, passed or held.",
    }),
  })
  .meta({ id: "StaffEffectsResponse" });
export type StaffEffectsResponse = z.infer<typeof StaffEffectsResponse>;

export const StaffEffectResponse = z
  .object({ effect: StaffEffect })
  .meta({ id: "StaffEffectResponse" });
export type StaffEffectResponse = z.infer<typeof StaffEffectResponse>;

/** POST /api/staff/effects/{id}/resolve: what staff did by hand, for the record. */
/**
 * A retry names the effect as the staff member saw it (its `updatedAt` from the queue): ten
 * clicks, tabs or colleagues acting on the same failure send the effect back to the relay once,
 * even when the relay has failed it again in between.
 */
export const RetryEffectBody = z
  .strictObject({
    updatedAt: isoDateTime.meta({
      description: "The effect's `updatedAt` as the queue showed it; 409 if it has changed since.",
    }),
  })
  .meta({ id: "RetryEffectBody" });

export const ResolveEffectBody = z
  .strictObject({
    // One line of free text (lib/text/free-text.ts): the queue and the audit show it as one.
    note: freeTextSchema(z.string().min(1).max(2000)).meta({
      example: "Refunded by bank transfer, ticket 4411.",
    }),
  })
  .meta({ id: "ResolveEffectBody" });

/* ---------------------------------------------------------------- auth (better-auth) */

/**
 * better-auth validates this body itself; the schema documents what it accepts. JSON only, at most
 * 8 KiB, the email at most 254 characters (lib/auth/sign-in-guard.ts checks those first).
 */
export const SignInBody = z.object({
  email: z.string().max(254).meta({ example: "anna@example.com" }),
  password: z.string().meta({ example: "returns-demo" }),
  rememberMe: z.boolean().optional(),
  callbackURL: z.string().optional(),
});

export const SignInResponse = z
  .looseObject({
    redirect: z.boolean(),
    token: z.string(),
    user: z.looseObject({ id: z.string(), email: z.string(), name: z.string() }),
  })
  .meta({ id: "SignInResponse" });

export const SignOutResponse = z.looseObject({ success: z.boolean() });

// ---------------------------------------------------------------- people in the loop

/**
 * What each write tool lets the customer revise, worded from the tool's own `editable`, so the
 * OpenAPI document, the card's edit form (lib/chat/present.ts) and docs/api.md (checked by
 * tests/unit/revise-docs.test.ts) cannot drift apart.
 */
export const EDITABLE_FIELDS_TEXT = WRITE_TOOLS.filter((t) => t.editable.length > 0)
  .map((t) => `\`${t.name}\`: ${t.editable.map((f) => `\`${f}\``).join(", ")}`)
  .join("; ");

/** POST /api/actions/{id}/revise: only the tool's editable fields (the order never). */
export const ReviseRequestSchema = z.strictObject({
  args: z.record(z.string(), z.unknown()).meta({
    description:
      "The changed fields only, each whole (an address with all its lines). Editable: " +
      `${EDITABLE_FIELDS_TEXT}.`,
  }),
});

/** POST /api/staff/actions/{id}/reject: the reason the customer will read. */
export const RejectRequestSchema = z.strictObject({
  // One line of free text (lib/text/free-text.ts): the card shows it in a sentence.
  reason: freeTextSchema(z.string().min(1).max(500)),
});

export const ReviseResponse = z
  .object({ pendingAction: PendingAction })
  .meta({ id: "ReviseResponse" });

export const ApprovalItem = z
  .object({
    action: PendingAction,
    customer: z.object({ id: z.string(), name: z.string(), email: z.string() }),
    confirmedAt: isoDateTime,
  })
  .meta({ id: "ApprovalItem" });
export const ApprovalsResponse = z
  .object({ approvals: z.array(ApprovalItem) })
  .meta({ id: "ApprovalsResponse" });
export const ApproveResponse = z
  .object({ action: PendingAction, result: ActionResult.nullable() })
  .meta({ id: "ApproveResponse" });
export const RejectResponse = z.object({ action: PendingAction }).meta({ id: "RejectResponse" });

// ---------------------------------------------------------------- the chat on a store's site

/** POST /api/embed/session: the store's signed token, and the page the iframe saw it come from. */
export const EmbedSessionRequest = z
  .object({
    token: z.string().min(1).meta({ description: "The JWT the store's server signed." }),
    origin: z
      .string()
      .max(300)
      .optional()
      .meta({
        description:
          "The store page's origin the iframe received the token from (checked against " +
          "EMBED_ALLOWED_ORIGINS; recorded in the audit).",
      }),
  })
  .meta({ id: "EmbedSessionRequest" });

export const EmbedSessionResponse = z
  .object({
    user: z.object({ id: z.string(), name: z.string(), email: z.string() }),
    storeCustomerId: z.string(),
  })
  .meta({ id: "EmbedSession" });

export const EmbedSignOutResponse = z.object({ signedOut: z.literal(true) });

export const EmbedGuestRequest = z
  .object({
    origin: EmbedSessionRequest.shape.origin,
    locale: z.enum(["en", "ru"]).default("en").meta({ description: "The widget's language." }),
  })
  .meta({ id: "EmbedGuestRequest" });

export const EmbedGuestResponse = z
  .object({
    user: z.object({ id: z.string(), name: z.string() }),
    guest: z.literal(true),
  })
  .meta({ id: "EmbedGuestSession" });

/** An order number as customers type it: short, so a limit's key and an audit row stay small. */
const GuestOrderId = z
  .string()
  .trim()
  .min(1)
  .max(32)
  .meta({ description: "The order's number, e.g. `5502`.", example: "5502" });

export const GuestSessionRequest = z
  .object({
    locale: z.enum(["en", "ru"]).default("en").meta({ description: "The visitor's language." }),
  })
  .meta({ id: "GuestSessionRequest" });

export const GuestSessionResponse = z
  .object({
    user: z.object({ id: z.string(), name: z.string() }),
    guest: z.literal(true),
  })
  .meta({ id: "GuestSession" });

export const GuestVerificationRequest = z
  .object({
    orderId: GuestOrderId,
    email: z.string().max(254).meta({
      description:
        "The e-mail the order was placed with; compared trimmed, NFKC-folded, lower-case.",
      example: "lena@example.org",
    }),
    locale: z
      .enum(["en", "ru"])
      .optional()
      .meta({ description: "The language of the mail; default the account's, else English." }),
  })
  .meta({ id: "GuestVerificationRequest" });

export const GuestVerificationResponse = z.object({ sent: z.literal(true) }).meta({
  id: "GuestVerificationSent",
  description:
    "The same answer whether or not the order was placed with this e-mail: if it was, a code is on its way there.",
});

export const GuestVerificationConfirm = z
  .object({
    orderId: GuestOrderId,
    code: z
      .string()
      .trim()
      .max(16)
      .meta({ description: "The 6-digit code from the mail.", example: "042917" }),
  })
  .meta({ id: "GuestVerificationConfirm" });

export const GuestVerifiedResponse = z
  .object({
    verified: z.object({
      orderId: z.string(),
      until: z.iso.datetime().meta({ description: "The guest may act on this order until then." }),
    }),
  })
  .meta({ id: "GuestVerified" });
