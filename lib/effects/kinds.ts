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

/**
 * An email to the customer (lib/effects/mail/). A snapshot taken when the effect is stored: the
 * address, the language and the facts the text needs, so every resend of the effect is the same
 * message (same Message-ID, same words) whatever changed since. The template is the kind.
 */
export const MAIL_PAYLOAD = z.strictObject({
  to: z.email(),
  /** The chat's language that confirmed, else the account's. */
  locale: z.enum(["en", "ru"]),
  orderId: z.string(),
  /** The return request (RT-…) or cancellation (CN-…) the mail is about. */
  reference: z.string(),
  /** The refund, in minor units. */
  amount: z.number().int().nonnegative(),
  currency: z.string().length(3),
});
export type MailPayload = z.output<typeof MAIL_PAYLOAD>;

/** The four mails, one effect kind each (so an action mails each at most once). */
export const MAIL_KINDS = [
  "mail.return_confirmed",
  "mail.cancellation_confirmed",
  "mail.refund_succeeded",
  "mail.refund_failed",
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

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

/**
 * Tell the warehouse of an event a write tool composed itself (a signed webhook, the same sender
 * as the address change's): the tool names the event's `type` and its `data`, so a new tool that
 * has the warehouse send or change something needs no kind of its own here nor a case in the
 * relay. exchange_items sends `warehouse.items_exchanged` this way.
 */
export const WAREHOUSE_EVENT_PAYLOAD = z.strictObject({
  /** Standard Webhooks' `webhook-id`: one per event, the same on every retry. */
  webhookId: z.string().regex(/^msg_[A-Za-z0-9_-]+$/),
  type: z.string().regex(/^warehouse\.[a-z_]+$/),
  timestamp: z.iso.datetime(),
  data: z.record(z.string(), z.unknown()),
});
export type WarehouseEventPayload = z.output<typeof WAREHOUSE_EVENT_PAYLOAD>;

/**
 * Cancel an order at the connected store (lib/store, docs/stores.md). The operation id (the
 * action's) goes into the store order's metadata, so the lookup after an unknown outcome can
 * tell whether this cancel happened.
 */
export const STORE_CANCEL_PAYLOAD = z.strictObject({
  backend: z.literal("medusa"),
  /** The store's own id of the order (Medusa's `order_…`). */
  storeOrderRef: z.string().min(1),
  /** The number the customer named it by. */
  orderId: z.string(),
  /** The order's updated_at at the store when the customer was shown the plan. */
  expectedUpdatedAt: z.string().min(1),
  /**
   * The confirm's mail to the customer ("your cancellation", "your return"), composed at the
   * confirm but sent only once the store applied the write: the relay stores it as a follow-up
   * in the transaction that records `succeeded` (see deferConfirmationMail).
   */
  confirmationMail: z
    .strictObject({
      kind: z.enum(["mail.return_confirmed", "mail.cancellation_confirmed"]),
      payload: MAIL_PAYLOAD,
    })
    .optional(),
});
export type StoreCancelPayload = z.output<typeof STORE_CANCEL_PAYLOAD>;

/**
 * An operational alert (a drift breach, a canary's rollback: lib/alerts) for ALERT_WEBHOOK_URL,
 * signed like the warehouse's webhook. The alert's own id is the operation id.
 */
export const ALERT_PAYLOAD = z.strictObject({
  /** Standard Webhooks' `webhook-id`: one per alert, the same on every retry. */
  webhookId: z.string().regex(/^msg_[A-Za-z0-9_-]+$/),
  alertId: z.string(),
  kind: z.string(),
  at: z.iso.datetime(),
  fingerprint: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
});
export type AlertPayload = z.output<typeof ALERT_PAYLOAD>;

/**
 * Request a return at the connected store of the lines and units the customer named (the store's
 * own item ids); the return and its items carry the operation id in their metadata. Compared
 * like the cancel: the order's updated_at from the plan. Without `items` (stored before returns
 * named their lines), the whole order.
 */
export const STORE_RETURN_PAYLOAD = STORE_CANCEL_PAYLOAD.extend({
  items: z
    .array(z.strictObject({ lineId: z.string().min(1), quantity: z.number().int().positive() }))
    .min(1)
    .optional(),
});
export type StoreReturnPayload = z.output<typeof STORE_RETURN_PAYLOAD>;

/**
 * Staff received a store return's parcel: receive the return at the store and refund its amount
 * of the order's captured payment there (the refund's note carries the return's operation id).
 */
export const STORE_RECEIVE_PAYLOAD = z.strictObject({
  backend: z.literal("medusa"),
  storeOrderRef: z.string().min(1),
  orderId: z.string(),
  /** Our return (store_operations' id, RR-…). */
  returnId: z.string(),
  /** Minor units. */
  amount: z.number().int().positive(),
  currency: z.string().length(3),
});
export type StoreReceivePayload = z.output<typeof STORE_RECEIVE_PAYLOAD>;

/** Change the store order's shipping address; the operation id goes into its metadata with it. */
export const STORE_ADDRESS_PAYLOAD = STORE_CANCEL_PAYLOAD.extend({ to: ADDRESS });
export type StoreAddressPayload = z.output<typeof STORE_ADDRESS_PAYLOAD>;

/**
 * Exchange units of an order's line for another variant of the same product at the connected
 * store (Medusa's exchanges: the line back as inbound items, the new variant as outbound items,
 * then the request), with the operation id in the exchange's metadata; then a cheaper variant's
 * difference, `refund`, is refunded of the order's captured payment there (its note carries the
 * operation id). Compared like the cancel: the order's updated_at from the plan.
 */
export const STORE_EXCHANGE_PAYLOAD = STORE_CANCEL_PAYLOAD.extend({
  /**
   * exchange: after delivery, Medusa's exchange; swap: before it ships, Medusa's order edit (the
   * new variant added, the line's units taken off, confirmed).
   */
  kind: z.enum(["swap", "exchange"]),
  /** The store's own ids of the line and of the variant it goes to. */
  lineId: z.string().min(1),
  quantity: z.number().int().positive(),
  toVariantId: z.string().min(1),
  /** Minor units; 0 when the new variant costs the same. */
  refund: z.number().int().nonnegative(),
  currency: z.string().length(3),
});
export type StoreExchangePayload = z.output<typeof STORE_EXCHANGE_PAYLOAD>;

/**
 * Propose the refused write again: the store refused a confirmed write because the order changed
 * there after the plan (`order_changed_at_store`), so the same tool plans the refused action's
 * stored arguments once more, on the order as the store has it now, and the chat gets the new
 * card (or the refusal). Stored by the relay in the transaction that records the refusal; carried
 * out by an executor a higher layer registers (./replan.ts), since planning is the tools' work.
 * The refused action is the effect's action; its id is the operation id.
 */
export const REPLAN_PAYLOAD = z.strictObject({
  /** The write tool that plans again (the refused action's). */
  tool: z.string().min(1),
  /** The store write the store refused (its effect), and the store's code. */
  refusedEffectId: z.string().min(1),
  code: z.literal("order_changed_at_store"),
});
export type ReplanPayload = z.output<typeof REPLAN_PAYLOAD>;

export const EFFECT_PAYLOADS = {
  "payment.refund": REFUND_PAYLOAD,
  "mail.return_confirmed": MAIL_PAYLOAD,
  "mail.cancellation_confirmed": MAIL_PAYLOAD,
  "mail.refund_succeeded": MAIL_PAYLOAD,
  "mail.refund_failed": MAIL_PAYLOAD,
  "warehouse.address_changed": ADDRESS_CHANGED_PAYLOAD,
  "warehouse.event": WAREHOUSE_EVENT_PAYLOAD,
  "store.cancel_order": STORE_CANCEL_PAYLOAD,
  "alert.raised": ALERT_PAYLOAD,
  "store.create_return": STORE_RETURN_PAYLOAD,
  "store.receive_return": STORE_RECEIVE_PAYLOAD,
  "store.change_address": STORE_ADDRESS_PAYLOAD,
  "store.exchange_items": STORE_EXCHANGE_PAYLOAD,
  "action.replan": REPLAN_PAYLOAD,
} as const;

export function isMailKind(kind: string): kind is MailKind {
  return (MAIL_KINDS as readonly string[]).includes(kind);
}

export type EffectKind = keyof typeof EFFECT_PAYLOADS;
export const EFFECT_KINDS = Object.keys(EFFECT_PAYLOADS) as [EffectKind, ...EffectKind[]];

/** One effect a confirmed action requires: stored in the outbox by the confirm's transaction. */
export type EffectRequest = {
  [K in EffectKind]: { kind: K; payload: z.output<(typeof EFFECT_PAYLOADS)[K]> };
}[EffectKind];

/** The audit trail's tool name for attempts at an effect of this kind (docs/effects.md). */
export const effectAuditTool = (kind: string) => `effect:${kind}`;

/** The writes at the connected store: their outcome is known only once the relay heard it. */
export const STORE_WRITE_KINDS = [
  "store.cancel_order",
  "store.create_return",
  "store.change_address",
  "store.exchange_items",
] as const satisfies readonly EffectKind[];
export type StoreWriteKind = (typeof STORE_WRITE_KINDS)[number];

export const isStoreWrite = (kind: string): kind is StoreWriteKind =>
  (STORE_WRITE_KINDS as readonly string[]).includes(kind);

/**
 * The confirm's effects with its mail: a write at the store is only queued by the confirm, and
 * the store may still refuse it (the order changed there), so its mail rides on the store's
 * effect and goes out when the store has applied it; any other write's mail is sent now.
 */
export function deferConfirmationMail(
  effects: readonly EffectRequest[],
  mails: readonly EffectRequest[],
): EffectRequest[] {
  const i = effects.findIndex((e) => isStoreWrite(e.kind));
  const mail = mails.find(
    (m) => m.kind === "mail.return_confirmed" || m.kind === "mail.cancellation_confirmed",
  );
  if (i < 0 || !mail) return [...effects, ...mails];
  const write = effects[i] as Extract<EffectRequest, { kind: StoreWriteKind }>;
  const deferred = {
    ...write,
    payload: {
      ...write.payload,
      confirmationMail: { kind: mail.kind, payload: mail.payload },
    },
  } as EffectRequest;
  return [
    ...effects.slice(0, i),
    deferred,
    ...effects.slice(i + 1),
    ...mails.filter((m) => m !== mail),
  ];
}
