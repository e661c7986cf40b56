/**
 * What the relay needs of a payment provider: send a refund under an idempotency key, and find
 * out whether a refund for an operation exists (reconciliation after an unknown outcome).
 * Adding a provider is one module implementing this, chosen in ./index.ts (docs/effects.md).
 */
import type { RefundPayload } from "../kinds";

/** Who is asking, as the provider's metadata records it. */
export type EffectRef = {
  effectId: string;
  actionId: string;
  /** The action id: what reconciliation matches on (Stripe: metadata.operation_id). */
  operationId: string;
  idempotencyKey: string;
};

/** The outcome of one request. */
export type SendOutcome =
  | { kind: "succeeded"; providerRef: string }
  /** The provider answered, and it said no for good (a 4xx other than 409/429): never retried. */
  | { kind: "definite"; code: string }
  /**
   * The outcome is unknown (timeout, connection reset, 5xx, 429, 409 key in use): retried, and
   * the next attempt first asks the provider whether the effect exists. `replayed`: the provider
   * answered from its store for this key (Stripe's `Idempotent-Replayed: true`), so sending the
   * same key again can only ever get the same answer.
   */
  | { kind: "indeterminate"; code: string; replayed?: boolean };

export type LookupOutcome =
  | { kind: "found"; providerRef: string }
  | { kind: "absent" }
  /** The provider has it, and it did not go through (a Stripe refund `failed` or `canceled`). */
  | { kind: "definite"; code: string }
  | { kind: "indeterminate"; code: string };

export type PaymentsProvider = {
  name: "ledger" | "stripe";
  refund(payload: RefundPayload, ref: EffectRef): Promise<SendOutcome>;
  findRefund(payload: RefundPayload, ref: EffectRef): Promise<LookupOutcome>;
};
