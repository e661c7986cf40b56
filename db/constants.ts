/**
 * The shared vocabularies, in one home: value sets used by the schema, the server and the browser
 * (action, outcome and effect statuses, note kinds, locales...). Plain constants, no drizzle:
 * client code can import them without pulling the database layer into its bundle.
 */
export const ACTION_STATUSES = [
  "pending",
  /** The customer confirmed; staff must approve before it executes. */
  "awaiting_approval",
  "executing",
  "executed",
  "cancelled",
  "expired",
  "superseded",
  "stale",
  "failed",
  /** Staff declined an `awaiting_approval` action; nothing was executed. */
  "rejected",
] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];

/** The statuses a decided action can end in: what a `data-action-outcome` part reports. */
export const OUTCOME_STATUSES = [
  "executed",
  /** The customer confirmed; staff approval is next. */
  "awaiting_approval",
  "rejected",
  "cancelled",
  "expired",
  "stale",
  "superseded",
  "failed",
] as const satisfies readonly ActionStatus[];
export type ActionOutcomeStatus = (typeof OUTCOME_STATUSES)[number];

/**
 * The app's chat notes after a decision, one per outcome status plus `existed` (executed, but
 * the effect was already there: createdNow false). Every write tool's describe() words each one.
 */
export const NOTE_KINDS = [
  "executed",
  "existed",
  "cancelled",
  "expired",
  "stale",
  "superseded",
  "failed",
] as const;
export type NoteKind = (typeof NOTE_KINDS)[number];

/** The interface languages (message catalogues in messages/); the first is the fallback. */
export const LOCALES = ["en", "ru"] as const;
export type Locale = (typeof LOCALES)[number];

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

export const ORDER_STATUSES = [
  "processing",
  "shipped",
  "in_transit",
  "delivered",
  "cancelled",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const RETURN_REASONS = ["defective", "damaged", "other"] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];

export const CANCEL_REASONS = [
  "changed_mind",
  "ordered_by_mistake",
  "found_cheaper",
  "other",
] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

export const AUDIT_STATUSES = [
  "success",
  "business_error",
  "timeout",
  "rejected",
  "technical_error",
  "confirmation_required",
  "cancelled",
  "expired",
  "superseded",
  "stale",
  /** The customer confirmed an action that waits for staff approval. */
  "awaiting_approval",
  /** Staff rejected an action that waited for approval. */
  "approval_rejected",
] as const;
export type AuditStatus = (typeof AUDIT_STATUSES)[number];

/** What a tool does: looks something up (`read`) or proposes a change (`write`); audited per call. */
export const TOOL_ACCESS = ["read", "write"] as const;
export type ToolAccess = (typeof TOOL_ACCESS)[number];
/**
 * The widths, in hours, of the audit status chart's counter buckets (audit_status_counts),
 * widest first. Each divides the next, so a range splits into whole buckets of one width and two
 * remainders for the next; only what is left below an hour is counted in audit_events.
 */
export const AUDIT_COUNT_SPANS = [720, 24, 1] as const;

/**
 * An external effect's life in the outbox (docs/effects.md): `pending` until a relay claims it,
 * `in_flight` while one holds its lease and calls the provider, then `succeeded`, `failed` (the
 * provider said no for good), `needs_attention` (attempts or time ran out with the outcome still
 * unknown) or `resolved` (staff settled a `needs_attention` one by hand).
 */
export const EFFECT_STATUSES = [
  "pending",
  "in_flight",
  "succeeded",
  "failed",
  "needs_attention",
  "resolved",
] as const;
export type EffectStatus = (typeof EFFECT_STATUSES)[number];

/**
 * The integration canary of one provider configuration (docs/effects.md): `running` while its
 * first effects go one at a time, `passed` once EFFECTS_CANARY_COUNT of them were reconciled,
 * `held` after one failed (the rest of that kind wait as needs_attention).
 */
export const EFFECT_CANARY_STATUSES = ["running", "passed", "held"] as const;
export type EffectCanaryStatus = (typeof EFFECT_CANARY_STATUSES)[number];

export const MODEL_CALL_KINDS = ["turn", "summary", "triage"] as const;
export type ModelCallKind = (typeof MODEL_CALL_KINDS)[number];

/** Who wrote a stored chat message; `staff` is a person replying in a handed-off chat. */
export const MESSAGE_ROLES = ["user", "assistant", "system", "staff"] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

/**
 * A handoff's life (lib/chat/handoff): `waiting` for a person after the customer asked for one,
 * `active` once staff replied, `released` when staff handed the chat back to the assistant.
 */
export const HANDOFF_STATUSES = ["waiting", "active", "released"] as const;
export type HandoffStatus = (typeof HANDOFF_STATUSES)[number];

/**
 * The account that owns the built-in store's orders placed at checkout without an account: it has
 * no password and no session, so nobody signs in as it; a guest reaches such an order only by
 * verifying its number and e-mail. Never pruned (it is not a guest).
 */
export const GUEST_CHECKOUT_USER_ID = "guest-checkout";
export const GUEST_CHECKOUT_EMAIL = "guest-checkout@checkout.invalid";
