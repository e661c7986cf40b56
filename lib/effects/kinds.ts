/**
 * The kinds of external effect a write tool's commit() may ask for, each with the zod schema of
 * its payload (declared once: the tool builds it, the outbox stores it, the relay parses it back
 * before a provider sees it). Free of "server-only" and of the database, so lib/tools can import
 * it without depending on the relay.
 */
import { z } from "zod";

/** Give money back on the order's original charge. */
export const REFUND_PAYLOAD = z.strictObject({
  orderId: z.string(),
  /** The provider's charge (a Stripe PaymentIntent `pi_…`); null for orders that predate it. */
  paymentRef: z.string().nullable(),
  /** Minor units. */
  amount: z.number().int().positive(),
  currency: z.string().length(3),
});
export type RefundPayload = z.output<typeof REFUND_PAYLOAD>;

const ADDRESS = z.strictObject({
  name: z.string(),
  line1: z.string(),
  line2: z.string().nullable(),
  postalCode: z.string(),
  city: z.string(),
  country: z.string(),
});

/** Tell the warehouse that an order's delivery address changed (a signed webhook). */
export const ADDRESS_CHANGED_PAYLOAD = z.strictObject({
  /** Standard Webhooks' `webhook-id`: one per change, the same on every retry. */
  webhookId: z.string().regex(/^msg_[A-Za-z0-9_-]+$/),
  changeId: z.string(),
  orderId: z.string(),
  from: ADDRESS.nullable(),
  to: ADDRESS,
  changedAt: z.iso.datetime(),
});
export type AddressChangedPayload = z.output<typeof ADDRESS_CHANGED_PAYLOAD>;

export const EFFECT_PAYLOADS = {
  "payment.refund": REFUND_PAYLOAD,
  "warehouse.address_changed": ADDRESS_CHANGED_PAYLOAD,
} as const;

export type EffectKind = keyof typeof EFFECT_PAYLOADS;
export const EFFECT_KINDS = Object.keys(EFFECT_PAYLOADS) as [EffectKind, ...EffectKind[]];

/** One effect a confirmed action requires: stored in the outbox by the confirm's transaction. */
export type EffectRequest = {
  [K in EffectKind]: { kind: K; payload: z.output<(typeof EFFECT_PAYLOADS)[K]> };
}[EffectKind];

/** The audit trail's tool name for attempts at an effect of this kind (docs/effects.md). */
export const effectAuditTool = (kind: string) => `effect:${kind}`;
