/**
 * Value sets shared by the schema and the browser. Plain constants, no drizzle: client code
 * can import them without pulling the database layer into its bundle.
 */
export const ACTION_STATUSES = [
  "pending",
  /** The customer confirmed; staff must approve before it executes (issue 22). */
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

/** The interface languages (message catalogues in messages/); the first is the fallback. */
export const LOCALES = ["en", "ru"] as const;
export type Locale = (typeof LOCALES)[number];

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

export const MODEL_CALL_KINDS = ["turn", "summary", "triage"] as const;
export type ModelCallKind = (typeof MODEL_CALL_KINDS)[number];
