/**
 * create_return_request (write): proposes a return; it runs only after the customer confirms.
 * The model supplies the order, the lines and quantities the customer named, a reason and a
 * comment; the refund is the sum of those lines at the order's own prices, to the order's own
 * payment method: no amount ever comes from the arguments.
 */
import { z } from "zod";
import { getOrderForUser, type OrderItem } from "@/db/queries/orders";
import {
  bumpOrderVersion,
  getReturnRequestByOperationId,
  getReturnRequestByOrderId,
  insertReturnLines,
  insertReturnRequestIfAbsent,
} from "@/db/queries/return-requests";
import {
  getStoreOperationByOperationId,
  getStoreOperationForUser,
  type StoreOperationRow,
} from "@/db/queries/store-operations";
import { ORDER_STATUSES, RETURN_REASONS } from "@/db/schema";
import { COMMENT, ORDER_ID } from "../normalize";
import { type ChosenLine, chooseLines, ITEMS } from "../order-lines";
import { returnEligibility } from "../return-policy";
import { ISO_DATE, MONEY, REFUND, RETURN_REQUEST_RESULT, toReturnRequestResult } from "../shapes";
import { shortId } from "../short-id";
import { findCustomerOrder } from "../store-order";
import { atStoreNote, changedAtStore, commitAtStore } from "../store-write";
import { ToolBusinessError, type Translate, type WriteTool } from "../types";
import { type EffectPhase, type EffectState, effectPhase, type OutcomeNote } from "../view";
import { writeEffectOnce } from "../write-effect";
import { meta } from "./meta";
import { offline } from "./offline";

const args = z.strictObject({
  orderId: ORDER_ID,
  /** The lines and quantities (../order-lines.ts); absent or "all": the whole order. */
  items: ITEMS,
  reason: z.enum(RETURN_REASONS),
  comment: COMMENT,
});
export type CreateReturnArgs = z.output<typeof args>;

/** The plan of docs/domain.md: what Confirm would do, computed from what commit will check. */
export const RETURN_PLAN = z.strictObject({
  effect: z.literal("create_return_request"),
  order: z.strictObject({
    id: z.string(),
    status: z.enum(ORDER_STATUSES),
    deliveredAt: ISO_DATE,
    items: z.array(
      z.strictObject({ name: z.string(), quantity: z.number().int(), unitPrice: z.number().int() }),
    ),
    total: MONEY,
  }),
  /**
   * What is returned: each line's name, units and unit price (the order's own). The refund is
   * their sum. Absent on plans stored before returns named their lines: those return the order.
   */
  lines: z
    .array(
      z.strictObject({
        lineId: z.string(),
        name: z.string(),
        quantity: z.number().int().positive(),
        unitPrice: z.number().int(),
      }),
    )
    .min(1)
    .optional(),
  eligible: z.literal(true),
  windowEndsAt: ISO_DATE,
  refund: REFUND,
  existingRequest: z.null(),
  externalRequests: z.literal(0),
  /**
   * The order at the connected store (STORE_BACKEND=medusa): the return is requested there,
   * through the outbox, only if the order still has this updated_at. Absent for the built-in store.
   */
  store: z
    .strictObject({ backend: z.literal("medusa"), ref: z.string(), updatedAt: z.string() })
    .optional(),
});
export type ReturnPlan = z.output<typeof RETURN_PLAN>;

export const createReturnRequest: WriteTool<
  "create_return_request",
  typeof args,
  typeof RETURN_REQUEST_RESULT,
  typeof RETURN_PLAN
> = {
  name: meta.name,
  help: meta.help,
  access: "write",
  // The customer may edit why and what they add, never which order. (Changing the lines on the
  // card needs a form for a list, which the Edit form does not have yet: ask again instead.)
  editable: ["reason", "comment"] satisfies (keyof CreateReturnArgs)[],
  confirmationMail: "mail.return_confirmed",
  description:
    "Propose a return for one of the customer's delivered orders. Use it only when the customer " +
    "explicitly asks to create a return and has given the order number and a reason. `items` " +
    "names what is returned: each line by its lineId from get_order_status (or the customer's " +
    'words for it) with a quantity (left out: all of that line), or "all" when the customer ' +
    "asks for the whole order. When the customer speaks of an item of an order with several " +
    "without saying which, pass [{}]: the tool answers which_items with the lines, and you ask. " +
    "Never pass a price: the refund is computed from the order. It does not " +
    "create anything by itself: the customer sees a confirmation card and must press Confirm. " +
    "If the order already has a return, the existing request comes back (createdNow: false).",
  args,
  result: RETURN_REQUEST_RESULT,
  planSchema: RETURN_PLAN,

  async plan({ orderId, items }, ctx) {
    // The store's facts (the built-in store: our own row); the window is our policy's decision.
    const order = await findCustomerOrder(orderId, ctx);
    if (!order) {
      throw new ToolBusinessError(
        "order_not_found",
        `No order ${orderId} was found for this customer.`,
      );
    }
    const rule = returnEligibility(order, ctx.now);
    if (!rule.eligible) throw new ToolBusinessError(rule.code, rule.message);
    const chosen = chooseLines(order, items, "return");
    return {
      target: { type: "order", id: order.id, version: order.version },
      plan: {
        effect: "create_return_request",
        order: {
          id: order.id,
          status: order.status,
          // Eligible implies delivered, so deliveredAt is set.
          deliveredAt: order.deliveredAt!.toISOString(),
          items: order.items.map((i) => ({
            name: i.name,
            quantity: i.quantity,
            unitPrice: i.unitPriceMinor,
          })),
          total: { amount: order.totalMinor, currency: order.currency },
        },
        lines: planLines(chosen),
        eligible: true,
        windowEndsAt: rule.windowEndsAt.toISOString(),
        refund: {
          amount: refundOf(chosen),
          currency: order.currency,
          destination: order.paymentMethod,
        },
        existingRequest: null,
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

  // The business key: one return per order. The core asks before plan() and, inside the confirm
  // transaction, before commit(): a return made by another action bumped the order's version,
  // and the customer should hear "already requested" (createdNow: false), not "order changed".
  async findExisting({ orderId }, ctx) {
    const order = await getOrderForUser({ id: orderId, userId: ctx.userId });
    if (order?.returnRequest) return toReturnRequestResult(order.returnRequest, false);
    const atStore = await getStoreOperationForUser({
      backend: "medusa",
      orderId,
      userId: ctx.userId,
      kind: "return",
    });
    return atStore ? storeResult(atStore, false) : null;
  },

  async commit({ orderId, items, reason, comment }, ctx) {
    if (ctx.plan.store)
      return returnAtStore({ orderId, items, reason, comment }, ctx, ctx.plan.store);
    const order = await getOrderForUser({ id: orderId, userId: ctx.userId });
    if (!order)
      return { kind: "stale", code: "order_not_found", message: "The order no longer exists." };
    if (order.version !== ctx.target.version) {
      return {
        kind: "stale",
        code: "order_changed",
        message: "The order changed after the return was proposed.",
      };
    }
    const rule = returnEligibility(order, ctx.now);
    if (!rule.eligible) return { kind: "stale", code: rule.code, message: rule.message };
    // The same lines as the plan's (the order is at the plan's version); a plan stored before
    // returns named their lines returns the whole order, as it said.
    const chosen = ctx.plan.lines
      ? chooseLines(order, items, "return")
      : wholeOrderLines(order.items);

    return await writeEffectOnce({
      insert: async () => {
        const row = await insertReturnRequestIfAbsent({
          id: shortId("RR"),
          orderId,
          userId: ctx.userId,
          reason,
          comment,
          refundAmountMinor: refundOf(chosen),
          refundCurrency: order.currency,
          refundDestination: order.paymentMethod,
          actionId: ctx.actionId,
          operationId: ctx.actionId,
          createdAt: ctx.now,
        });
        if (row) {
          await insertReturnLines(
            row.id,
            chosen.map(({ item, quantity }) => ({
              orderItemId: Number(item.lineId),
              name: item.name,
              quantity,
              unitPriceMinor: item.unitPriceMinor,
            })),
          );
        }
        return row;
      },
      winner: () => getReturnRequestByOrderId({ orderId }),
      compareAndSet: () =>
        bumpOrderVersion({
          orderId,
          userId: ctx.userId,
          expectedVersion: ctx.target.version,
          now: ctx.now,
        }),
      toResult: toReturnRequestResult,
      moved: { code: "order_changed", message: "The order changed after the return was proposed." },
    });
  },

  // The return row and its operation id commit together with the action's claim.
  async findEffect(operationId) {
    const row = await getReturnRequestByOperationId({ operationId });
    if (row) return toReturnRequestResult(row, true);
    const atStore = await getStoreOperationByOperationId({ operationId });
    return atStore ? storeResult(atStore, true) : null;
  },

  offline,

  triage: {
    category: meta.triage.category,
    story({ args, plan, result, status, errorCode }) {
      const order = typeof args.orderId === "string" ? args.orderId : "(unknown)";
      const reason = typeof args.reason === "string" ? ` (${args.reason})` : "";
      const asked = `Customer asked to return order ${order}${reason}`;
      const r = RETURN_REQUEST_RESULT.partial().safeParse(result).data;
      // Only the refund is read: a strict pick of the plan refused every stored plan (they
      // have all the other keys too), so staff always read the fallback.
      const to =
        z.object({ refund: REFUND }).safeParse(plan).data?.refund.destination ??
        "the original payment method";
      switch (status) {
        case "executed":
          return {
            summary: `${asked}; ${r?.createdNow === false ? "it already had a return request" : "the return request was created"}.`,
            next: `Process return ${r?.requestId ?? ""} for order ${order} and refund it to ${to}.`,
          };
        case "refused":
          return {
            summary: `Customer asked for a return of order ${order}; it was not possible (${errorCode}).`,
            next: "Reply only if the customer disputes the refusal; the policy decided.",
          };
        case "pending":
        case "executing":
          return {
            summary: `${asked}; a proposal awaits the customer's confirmation.`,
            next: `None yet: the customer has to confirm or cancel the return of order ${order}.`,
          };
        case "failed":
          return {
            summary: `${asked}; the return failed (${errorCode ?? "error"}) and nothing was changed.`,
            next: `Investigate the failed return of order ${order} and contact the customer.`,
          };
        case "stale":
          return {
            summary: `${asked}; the order changed before confirmation, so nothing was created.`,
            next: `Check order ${order}, which changed after the proposal, and help the customer ask again.`,
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
    const values = { orderId: plan.order.id, amount, destination: plan.refund.destination };
    const notes = { orderId: plan.order.id, requestId: result?.requestId ?? "" };
    const { currency } = plan.order.total;
    return {
      title: t("title"),
      summary: t("summary", values),
      subject: t("subject", values),
      approval: t("approval", values),
      rows: [
        {
          key: "order",
          label: t("rows.order"),
          value: t("rows.orderValue", {
            orderId: plan.order.id,
            deliveredAt: date(plan.order.deliveredAt),
          }),
        },
        {
          key: "items",
          label: t("rows.items"),
          value: (plan.lines ?? plan.order.items).map((i) =>
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
        {
          key: "window",
          label: t("rows.window"),
          value: t("rows.windowValue", { date: date(plan.windowEndsAt) }),
        },
      ],
      amount: {
        key: "refund",
        label: t("rows.refund"),
        value: amount,
        detail: t("rows.refundTo", { destination: plan.refund.destination }),
      },
      warning: null,
      confirmation: t("confirmation", {
        ...values,
        reason: t("reasonInline", { reason: args.reason }),
      }),
      outcome: result ? returnOutcome(result.createdNow, effects, { ...notes, amount }, t) : null,
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

/** The plan's lines: what the card lists and the refund adds up. */
const planLines = (chosen: readonly ChosenLine[]) =>
  chosen.map(({ item, quantity }) => ({
    lineId: item.lineId,
    name: item.name,
    quantity,
    unitPrice: item.unitPriceMinor,
  }));

/** The refund: the returned lines at the order's own prices, and nothing else. */
const refundOf = (chosen: readonly ChosenLine[]) =>
  chosen.reduce((sum, { item, quantity }) => sum + quantity * item.unitPriceMinor, 0);

/** Every unit of every line: what a plan from before lines returned. */
const wholeOrderLines = (items: readonly OrderItem[]): ChosenLine[] =>
  items.map((item) => ({ item, quantity: item.quantity }));

/** A return recorded for an order at the store, as the tool's result. */
function storeResult(row: StoreOperationRow, createdNow: boolean) {
  return toReturnRequestResult(
    // A store operation of kind "return" was written with a return's reason.
    { ...row, reason: z.enum(RETURN_REASONS).parse(row.reason) },
    createdNow,
  );
}

/**
 * The commit for an order at the connected store (../store-write.ts): one return per order
 * there, requested by the outbox's `store.create_return` with the plan's lines and units (the
 * store's own item ids), and refunded at the receipt by the plan's amount: those lines' sum.
 */
function returnAtStore(
  { orderId, reason, comment }: CreateReturnArgs,
  ctx: { actionId: string; userId: string; plan: ReturnPlan; now: Date },
  at: NonNullable<ReturnPlan["store"]>,
) {
  return commitAtStore({
    at,
    actionId: ctx.actionId,
    row: {
      id: shortId("RR"),
      kind: "return",
      orderId,
      userId: ctx.userId,
      reason,
      comment,
      refundAmountMinor: ctx.plan.refund.amount,
      refundCurrency: ctx.plan.refund.currency,
      refundDestination: ctx.plan.refund.destination,
      createdAt: ctx.now,
    },
    effect: {
      kind: "store.create_return",
      // A plan stored before returns named their lines has none: the store returns the order.
      extra: ctx.plan.lines
        ? { items: ctx.plan.lines.map((l) => ({ lineId: l.lineId, quantity: l.quantity })) }
        : {},
    },
    toResult: storeResult,
  });
}

const REFUND_TONE: Record<EffectPhase, OutcomeNote["tone"]> = {
  processing: "neutral",
  succeeded: "success",
  failed: "warning",
  needs_attention: "warning",
  resolved: "neutral",
};

/**
 * The card's note once the return exists: its refund's progress once staff received the parcel
 * (the refund effect exists from then on: POST /api/staff/returns/{id}/receive), else created.
 */
function returnOutcome(
  createdNow: boolean,
  effects: readonly EffectState[],
  notes: Record<string, string>,
  t: Translate,
): OutcomeNote {
  if (!createdNow) return { tone: "neutral", text: t("outcome.existed", notes) };
  // The store refused it: the order changed there after the plan (nothing was done).
  if (changedAtStore(effects, "store.create_return"))
    return { tone: "warning", text: t("outcome.storeChanged", notes) };
  const atStore = atStoreNote(effects, "store.create_return", (phase) =>
    t("outcome.atStore", { ...notes, phase }),
  );
  if (atStore) return atStore;
  // Ours, or the store's receipt and refund (an order at the connected store).
  const refund = effects.find(
    (e) => e.kind === "payment.refund" || e.kind === "store.receive_return",
  );
  // Until staff receive the parcel there is no refund yet, but the note will change: awaiting.
  if (!refund) return { tone: "success", text: t("outcome.created", notes), awaiting: true };
  const phase = effectPhase(refund.status);
  return { tone: REFUND_TONE[phase], text: t("outcome.received", { ...notes, phase }) };
}
