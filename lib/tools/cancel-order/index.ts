/**
 * cancel_order (write): proposes cancelling an order that has not shipped; it runs only after the
 * customer confirms. Everything about the action lives here: its policy (processing only, owner
 * only), the plan, the commit (compare-and-set on the order's version), the business key (one
 * cancellation per order), recovery, the card's wording and the staff triage story.
 */
import { z } from "zod";
import {
  type CancellationRow,
  cancelOrderIfUnchanged,
  getCancellationByOperationId,
  getCancellationByOrderId,
  getCancellationForUser,
  insertCancellationIfAbsent,
} from "@/db/queries/cancellations";
import { getOrderForUser, type OrderWithItems } from "@/db/queries/orders";
import {
  getStoreOperationByOperationId,
  getStoreOperationForUser,
  type StoreOperationRow,
} from "@/db/queries/store-operations";
import { CANCEL_REASONS, ORDER_STATUSES } from "@/db/schema";
import { COMMENT, ORDER_ID } from "../normalize";
import { returnEligibility } from "../return-policy";
import { ISO_DATE, MONEY, REFUND } from "../shapes";
import { shortId } from "../short-id";
import { findCustomerOrder } from "../store-order";
import { atStoreNote, cancelledByStore, changedAtStore, commitAtStore } from "../store-write";
import { ToolBusinessError, type Translate, type WriteTool } from "../types";
import { type EffectPhase, type EffectState, effectPhase, type OutcomeNote } from "../view";
import { writeEffectOnce } from "../write-effect";
import { meta } from "./meta";
import { offline } from "./offline";

const args = z.strictObject({
  orderId: ORDER_ID,
  reason: z.enum(CANCEL_REASONS),
  comment: COMMENT,
});

/** The plan of domain.md: what Confirm would do, computed from what commit will check. */
const PLAN = z.strictObject({
  effect: z.literal("cancel_order"),
  order: z.strictObject({
    id: z.string(),
    status: z.enum(ORDER_STATUSES),
    placedAt: ISO_DATE,
    items: z.array(
      z.strictObject({ name: z.string(), quantity: z.number().int(), unitPrice: z.number().int() }),
    ),
    total: MONEY,
  }),
  eligible: z.literal(true),
  refund: REFUND,
  externalRequests: z.literal(0),
  /**
   * The order at the connected store (STORE_BACKEND=medusa): the cancel happens there, through
   * the outbox, only if the order still has this updated_at. Absent for the built-in store.
   */
  store: z
    .strictObject({ backend: z.literal("medusa"), ref: z.string(), updatedAt: z.string() })
    .optional(),
});

const RESULT = z.strictObject({
  cancellationId: z.string(),
  orderId: z.string(),
  status: z.literal("cancelled"),
  /** false when the order already had this cancellation (nothing new was written). */
  createdNow: z.boolean(),
  reason: z.enum(CANCEL_REASONS),
  comment: z.string().nullable(),
  refund: REFUND,
  cancelledAt: ISO_DATE,
});
type CancelResult = z.output<typeof RESULT>;

function toResult(row: CancellationRow | StoreOperationRow, createdNow: boolean): CancelResult {
  return {
    cancellationId: row.id,
    orderId: row.orderId,
    status: "cancelled",
    createdNow,
    // A store operation of kind "cancel" was written with a cancellation's reason.
    reason: z.enum(CANCEL_REASONS).parse(row.reason),
    comment: row.comment,
    refund: {
      amount: row.refundAmountMinor,
      currency: row.refundCurrency,
      destination: row.refundDestination,
    },
    cancelledAt: row.createdAt.toISOString(),
  };
}

/** The policy: only the owner (the caller only ever sees their own orders), only `processing`. */
function refusal(order: OrderWithItems, now: Date): ToolBusinessError | null {
  const id = order.id;
  switch (order.status) {
    // A switch with no matching case returns undefined, which the caller reads as no refusal.
    // Stryker disable next-line StringLiteral: undefined and null both mean allowed
    case "processing":
      return null;
    case "cancelled":
      // Cancelled outside this tool (no cancellation on record): nothing to do.
      return new ToolBusinessError("already_cancelled", `Order ${id} is already cancelled.`);
    case "shipped":
    case "in_transit":
      return new ToolBusinessError(
        "already_shipped",
        `Order ${id} has already shipped (status: ${order.status}), so it can no longer be cancelled. Once it is delivered, the customer can ask for a return instead.`,
      );
    case "delivered":
      return returnEligibility(order, now).eligible
        ? new ToolBusinessError(
            "already_delivered",
            `Order ${id} has been delivered, so it can no longer be cancelled, but it can still be returned: the customer can ask for a return instead.`,
          )
        : new ToolBusinessError(
            "already_delivered_not_returnable",
            `Order ${id} has been delivered, so it can no longer be cancelled, and its return window has ended.`,
          );
  }
}

export const cancelOrder: WriteTool<"cancel_order", typeof args, typeof RESULT, typeof PLAN> = {
  name: meta.name,
  help: meta.help,
  access: "write",
  // The customer may edit why and what they add, never which order.
  editable: ["reason", "comment"] satisfies (keyof z.output<typeof args>)[],
  confirmationMail: "mail.cancellation_confirmed",
  description:
    "Propose cancelling one of the customer's orders that has not shipped yet (status processing). " +
    "Use it only when the customer explicitly asks to cancel and has given the order number; a " +
    "question such as 'can I still cancel?' is not a request. Reason: changed_mind, " +
    "ordered_by_mistake, found_cheaper or other. It does not cancel anything by itself: the " +
    "customer sees a confirmation card and must press Confirm. If the order is already cancelled, " +
    "the existing cancellation comes back (createdNow: false).",
  args,
  result: RESULT,
  planSchema: PLAN,

  // The business key: one cancellation per order.
  async findExisting({ orderId }, ctx) {
    const row =
      (await getCancellationForUser({ orderId, userId: ctx.userId })) ??
      (await getStoreOperationForUser({
        backend: "medusa",
        orderId,
        userId: ctx.userId,
        kind: "cancel",
      }));
    return row ? toResult(row, false) : null;
  },

  async plan({ orderId }, ctx) {
    const order = await findCustomerOrder(orderId, ctx);
    if (!order) {
      throw new ToolBusinessError(
        "order_not_found",
        `No order ${orderId} was found for this customer.`,
      );
    }
    const refused = refusal(order, ctx.now);
    if (refused) throw refused;
    return {
      target: { type: "order", id: order.id, version: order.version },
      plan: {
        effect: "cancel_order",
        order: {
          id: order.id,
          status: order.status,
          placedAt: order.placedAt.toISOString(),
          items: order.items.map((i) => ({
            name: i.name,
            quantity: i.quantity,
            unitPrice: i.unitPriceMinor,
          })),
          total: { amount: order.totalMinor, currency: order.currency },
        },
        eligible: true,
        // Nothing has shipped, so everything paid goes back to where it came from.
        refund: {
          amount: order.totalMinor,
          currency: order.currency,
          destination: order.paymentMethod,
        },
        externalRequests: 0,
        ...(order.store
          ? {
              store: {
                backend: "medusa" as const,
                ref: order.store.ref,
                updatedAt: order.store.updatedAt,
              },
            }
          : {}),
      },
    };
  },

  async commit({ orderId, reason, comment }, ctx) {
    if (ctx.plan.store) return cancelAtStore({ orderId, reason, comment }, ctx, ctx.plan.store);
    const order = await getOrderForUser({ id: orderId, userId: ctx.userId });
    if (!order)
      return { kind: "stale", code: "order_not_found", message: "The order no longer exists." };
    // Equivalent without this early exit: the compare-and-set below requires the same version and
    // `processing`, so the insert is rolled back into the same stale order_changed (and the core asks
    // findExisting first, so a cancellation already on record never reaches commit).
    if (order.version !== ctx.target.version || order.status !== "processing") {
      return {
        kind: "stale",
        code: "order_changed",
        message: "The order changed (it may have shipped) after the cancellation was proposed.",
      };
    }
    return await writeEffectOnce({
      insert: () =>
        insertCancellationIfAbsent({
          id: shortId("CN"),
          orderId,
          userId: ctx.userId,
          reason,
          comment,
          refundAmountMinor: order.totalMinor,
          refundCurrency: order.currency,
          refundDestination: order.paymentMethod,
          actionId: ctx.actionId,
          operationId: ctx.actionId,
          createdAt: ctx.now,
        }),
      winner: () => getCancellationByOrderId({ orderId }),
      compareAndSet: () =>
        cancelOrderIfUnchanged({
          orderId,
          userId: ctx.userId,
          expectedVersion: ctx.target.version,
          now: ctx.now,
        }),
      toResult,
      // The money goes back through the outbox after the commit (docs/effects.md).
      effects: (row) =>
        row.refundAmountMinor > 0
          ? [
              {
                kind: "payment.refund",
                payload: {
                  orderId: row.orderId,
                  paymentRef: order.paymentRef,
                  amount: row.refundAmountMinor,
                  currency: row.refundCurrency,
                },
              },
            ]
          : [],
      moved: {
        code: "order_changed",
        message: "The order changed (it may have shipped) after the cancellation was proposed.",
      },
    });
  },

  async findEffect(operationId) {
    const row =
      (await getCancellationByOperationId({ operationId })) ??
      (await getStoreOperationByOperationId({ operationId }));
    return row ? toResult(row, true) : null;
  },

  offline,

  triage: {
    category: meta.triage.category,
    story({ args, result, status, errorCode }) {
      const order = typeof args.orderId === "string" ? args.orderId : "(unknown)";
      const reason = typeof args.reason === "string" ? ` (${args.reason})` : "";
      const asked = `Customer asked to cancel order ${order}${reason}`;
      const r = RESULT.partial().safeParse(result).data;
      switch (status) {
        case "executed":
          return {
            summary: `${asked}; ${r?.createdNow === false ? "it was already cancelled" : "the order was cancelled"}.`,
            next: `Refund order ${order} (cancellation ${r?.cancellationId ?? ""}) to ${r?.refund?.destination ?? "the original payment method"} and make sure it does not ship.`,
          };
        case "refused":
          return {
            summary: `Customer asked to cancel order ${order}; it was not possible (${errorCode}).`,
            next: "Reply only if the customer disputes the refusal; the policy decided.",
          };
        case "pending":
        case "executing":
          return {
            summary: `${asked}; a proposal awaits the customer's confirmation.`,
            next: `None yet: the customer has to confirm or cancel the cancellation of order ${order}.`,
          };
        case "failed":
          return {
            summary: `${asked}; the cancellation failed (${errorCode ?? "error"}) and nothing was changed.`,
            next: `Investigate the failed cancellation of order ${order} and contact the customer.`,
          };
        case "stale":
          return {
            summary: `${asked}; the order changed (shipped?) before confirmation, so nothing was cancelled.`,
            next: `Check order ${order}; if it shipped, offer the customer a return after delivery.`,
          };
        default:
          return {
            summary: `${asked}; the proposal was ${status}.`,
            next: "No action needed unless the customer asks again.",
          };
      }
    },
  },

  describe({ args, plan, result, effects }, { t, money, date }) {
    const amount = money(plan.refund.amount, plan.refund.currency);
    const orderId = plan.order.id;
    const values = { orderId, amount, destination: plan.refund.destination };
    const notes = { orderId, cancellationId: result?.cancellationId ?? "", amount };
    const { currency } = plan.order.total;
    return {
      title: t("title", { orderId }),
      summary: t("summary", values),
      subject: t("subject", values),
      approval: t("approval", values),
      rows: [
        {
          key: "order",
          label: t("rows.order"),
          value: t("rows.orderValue", { orderId, placedAt: date(plan.order.placedAt) }),
        },
        {
          key: "items",
          label: t("rows.items"),
          value: plan.order.items.map((i) =>
            t("rows.item", {
              quantity: i.quantity,
              name: i.name,
              price: money(i.unitPrice, currency),
            }),
          ),
        },
        {
          key: "reason",
          label: t("rows.reason"),
          value: t("rows.reasonValue", { reason: args.reason }),
        },
        { key: "comment", label: t("rows.comment"), value: args.comment ?? t("rows.none") },
      ],
      amount: {
        key: "refund",
        label: t("rows.refund"),
        value: amount,
        detail: t("rows.refundTo", { destination: plan.refund.destination }),
      },
      warning: t("warning"),
      confirmation: t("confirmation", values),
      outcome: result ? outcomeNote(result.createdNow, effects, notes, t) : null,
      notes: {
        // At the store the confirm only queued the write: the chat must not say it is done.
        executed: t(plan.store ? "notes.executedAtStore" : "notes.executed", notes),
        existed: t("notes.existed", notes),
        cancelled: t("notes.cancelled", notes),
        expired: t("notes.expired", notes),
        stale: t("notes.stale", notes),
        superseded: t("notes.superseded", notes),
        failed: t("notes.failed", notes),
      },
    };
  },
};

type Plan = z.output<typeof PLAN>;

/**
 * The commit for an order at the connected store (./store-write.ts): one cancellation per order
 * there, cancelled by the outbox's `store.cancel_order`. The store refunds what it captured
 * itself; no refund of ours is sent.
 */
function cancelAtStore(
  { orderId, reason, comment }: z.output<typeof args>,
  ctx: { actionId: string; userId: string; plan: Plan; now: Date },
  at: NonNullable<Plan["store"]>,
) {
  return commitAtStore({
    at,
    actionId: ctx.actionId,
    row: {
      id: shortId("CN"),
      kind: "cancel",
      orderId,
      userId: ctx.userId,
      reason,
      comment,
      refundAmountMinor: ctx.plan.refund.amount,
      refundCurrency: ctx.plan.refund.currency,
      refundDestination: ctx.plan.refund.destination,
      createdAt: ctx.now,
    },
    effect: { kind: "store.cancel_order" },
    toResult,
  });
}

/** How the refund's progress colours the note: only a refund that went through is a success. */
const REFUND_TONE: Record<EffectPhase, OutcomeNote["tone"]> = {
  processing: "neutral",
  succeeded: "success",
  failed: "warning",
  needs_attention: "warning",
  resolved: "neutral",
};

/**
 * The card's note once the order is cancelled: with its refund's progress when the refund went
 * through the outbox (this action's `payment.refund` effect), else the note of a cancellation that
 * had nothing to refund, predates the outbox, or already existed (its refund is another action's).
 */
function outcomeNote(
  createdNow: boolean,
  effects: readonly EffectState[],
  notes: Record<string, string>,
  t: Translate,
): OutcomeNote {
  if (!createdNow) return { tone: "neutral", text: t("outcome.existed", notes) };
  // The store refused it: the order changed there after the plan (nothing was done).
  if (changedAtStore(effects, "store.cancel_order"))
    return { tone: "warning", text: t("outcome.storeChanged", notes) };
  // Someone at the store cancelled it, not this request: we did nothing and refunded nothing.
  if (cancelledByStore(effects))
    return { tone: "neutral", text: t("outcome.storeCancelled", notes) };
  const atStore = atStoreNote(effects, "store.cancel_order", (phase) =>
    t("outcome.atStore", { ...notes, phase }),
  );
  if (atStore) return atStore;
  const refund = effects.find((e) => e.kind === "payment.refund");
  if (!refund) return { tone: "success", text: t("outcome.created", notes) };
  const phase = effectPhase(refund.status);
  return { tone: REFUND_TONE[phase], text: t("outcome.refund", { ...notes, phase }) };
}
