/**
 * change_delivery_address (write): proposes sending an order that has not shipped to another
 * address; it runs only after the customer confirms. Everything about the action lives in this
 * folder: the policy (owner only, only while `processing`, a shipping country, a postal code of
 * that country, a real change), the plan (the old and the new address side by side), the commit
 * (compare-and-set on the order's version, one change per action), the warehouse's webhook (an
 * effect through the outbox), the card's wording and the staff triage story.
 */
import { z } from "zod";
import {
  type AddressChangeRow,
  changeOrderAddressIfUnchanged,
  getAddressChangeByOperationId,
  getLatestAddressChangeForUser,
  insertAddressChangeIfAbsent,
} from "@/db/queries/delivery-address-changes";
import { getOrderForUser, type OrderWithItems } from "@/db/queries/orders";
import {
  getStoreOperationByOperationId,
  type StoreOperationRow,
} from "@/db/queries/store-operations";
import { ORDER_STATUSES } from "@/db/schema";
import { env } from "@/lib/env";
import {
  type Address,
  addressLine,
  isShippingCountry,
  NEW_ADDRESS,
  type NewAddress,
  orderAddress,
  SHIPPING_COUNTRIES,
  STORED_ADDRESS,
  sameAddress,
  validPostalCode,
  withRecipient,
} from "@/lib/orders/address";
import { ORDER_ID } from "../normalize";
import { ISO_DATE } from "../shapes";
import { shortId } from "../short-id";
import { findCustomerOrder } from "../store-order";
import { atStoreNote, changedAtStore, commitAtStore } from "../store-write";
import { ToolBusinessError, type Translate, type WriteTool } from "../types";
import { type EffectPhase, type EffectState, effectPhase, type OutcomeNote } from "../view";
import { writeEffectOnce } from "../write-effect";
import { meta } from "./meta";
import { offline } from "./offline";

const args = z.strictObject({ orderId: ORDER_ID, address: NEW_ADDRESS });
export type ChangeAddressArgs = z.output<typeof args>;

/** What Confirm would do: the address on the order now and the one it would get, side by side. */
const PLAN = z.strictObject({
  effect: z.literal("change_delivery_address"),
  order: z.strictObject({ id: z.string(), status: z.enum(ORDER_STATUSES), placedAt: ISO_DATE }),
  /** null when the order had no address on record. */
  from: STORED_ADDRESS.nullable(),
  to: STORED_ADDRESS,
  eligible: z.literal(true),
  /** 1 when the warehouse will be told by webhook after the confirm, 0 when none is configured. */
  externalRequests: z.union([z.literal(0), z.literal(1)]),
  /**
   * The order at the connected store (STORE_BACKEND=medusa): the address is changed there,
   * through the outbox, only if the order still has this updated_at. Absent for the built-in store.
   */
  store: z
    .strictObject({ backend: z.literal("medusa"), ref: z.string(), updatedAt: z.string() })
    .optional(),
});
type Plan = z.output<typeof PLAN>;

const RESULT = z.strictObject({
  changeId: z.string(),
  orderId: z.string(),
  /** false when the order already had this address from an earlier change (nothing was written). */
  createdNow: z.boolean(),
  from: STORED_ADDRESS.nullable(),
  to: STORED_ADDRESS,
  changedAt: ISO_DATE,
});
type ChangeResult = z.output<typeof RESULT>;

function toResult(row: AddressChangeRow, createdNow: boolean): ChangeResult {
  return {
    changeId: row.id,
    orderId: row.orderId,
    createdNow,
    from: row.fromAddress ?? null,
    to: row.toAddress,
    changedAt: row.createdAt.toISOString(),
  };
}

const CHANGED = {
  code: "order_changed",
  message: "The order changed (it may have shipped) after the address change was proposed.",
};

/** The address the order would get: the recipient, when not given, stays the order's current one. */
const destination = (order: OrderWithItems, address: NewAddress) =>
  withRecipient(address, orderAddress(order));

/** The policy: only the owner (the caller only sees their own orders), only `processing`. */
function refusal(order: OrderWithItems, to: Address | null): ToolBusinessError | null {
  const id = order.id;
  switch (order.status) {
    case "processing":
      break;
    case "cancelled":
      return new ToolBusinessError("order_cancelled", `Order ${id} is cancelled.`);
    case "delivered":
      return new ToolBusinessError(
        "already_delivered",
        `Order ${id} has already been delivered, so its address can no longer be changed.`,
      );
    default:
      return new ToolBusinessError(
        "already_shipped",
        `Order ${id} has already shipped (status: ${order.status}), so its delivery address can no longer be changed.`,
      );
  }
  if (!to) {
    return new ToolBusinessError(
      "recipient_missing",
      `Order ${id} has no recipient on record: the new address needs the recipient's name.`,
    );
  }
  if (!isShippingCountry(to.country)) {
    return new ToolBusinessError(
      "country_not_shipped",
      `We do not ship to ${to.country}. Shipping countries: ${Object.keys(SHIPPING_COUNTRIES).join(", ")}.`,
    );
  }
  if (!validPostalCode(to.country, to.postalCode)) {
    return new ToolBusinessError(
      "invalid_postal_code",
      `${to.postalCode} is not a postal code of ${to.country}.`,
    );
  }
  if (sameAddress(orderAddress(order), to)) {
    return new ToolBusinessError(
      "address_unchanged",
      `Order ${id} is already going to that address.`,
    );
  }
  return null;
}

/** A change recorded for an order at the store (its old address is the plan's, when known). */
function storeResult(
  row: StoreOperationRow,
  from: ChangeResult["from"],
  createdNow: boolean,
): ChangeResult {
  return {
    changeId: row.id,
    orderId: row.orderId,
    createdNow,
    from,
    to: STORED_ADDRESS.parse(row.toAddress),
    changedAt: row.createdAt.toISOString(),
  };
}

/**
 * The commit for an order at the connected store (../store-write.ts): one change per action,
 * written by the outbox's `store.change_address`. An order that changed at the store since the
 * plan (it may have shipped) keeps its address.
 */
function changeAtStore(
  orderId: string,
  ctx: { actionId: string; userId: string; plan: Plan; now: Date },
  at: NonNullable<Plan["store"]>,
) {
  return commitAtStore({
    at,
    actionId: ctx.actionId,
    row: {
      id: shortId("AC"),
      kind: "address",
      orderId,
      userId: ctx.userId,
      reason: null,
      comment: null,
      // No money moves with an address ("XXX": ISO 4217's "no currency").
      refundAmountMinor: 0,
      refundCurrency: "XXX",
      refundDestination: "",
      toAddress: ctx.plan.to,
      createdAt: ctx.now,
    },
    effect: { kind: "store.change_address", extra: { to: ctx.plan.to } },
    toResult: (row, createdNow) => storeResult(row, ctx.plan.from, createdNow),
  });
}

/** The warehouse is told only when a webhook is configured; without one the change is still made. */
const webhookConfigured = () => Boolean(env().WAREHOUSE_WEBHOOK_URL);

export const changeDeliveryAddress: WriteTool<
  "change_delivery_address",
  typeof args,
  typeof RESULT,
  typeof PLAN
> = {
  name: meta.name,
  help: meta.help,
  access: "write",
  // The customer may correct the new address before confirming, never which order. The address
  // carries the recipient (its `name`): naming someone else is an edit of it, and null keeps the
  // order's current recipient, as when the customer gave no name.
  editable: ["address"] satisfies (keyof ChangeAddressArgs)[],
  description:
    "Propose sending one of the customer's orders that has not shipped yet (status processing) to " +
    "another delivery address. Use it only when the customer explicitly asks to change the " +
    "address, has given the order number and the new address: line1 (street and number), " +
    "optional line2, postalCode, city and country (two-letter ISO code, e.g. DE), and name only " +
    "if the customer gave a recipient (without one, the order's current recipient stays). A " +
    "question such as 'can I still change the address?' is not a request. It does not change " +
    "anything by itself: the customer sees the old and the new address on a confirmation card " +
    "and must press Confirm.",
  args,
  result: RESULT,
  planSchema: PLAN,

  // Already done: the order's latest change set exactly this address and the order still has it.
  async findExisting({ orderId, address }, ctx) {
    const row = await getLatestAddressChangeForUser({ orderId, userId: ctx.userId });
    if (!row) return null;
    const order = await getOrderForUser({ id: orderId, userId: ctx.userId });
    if (!order) return null;
    const to = destination(order, address);
    if (!sameAddress(row.toAddress, to) || !sameAddress(orderAddress(order), to)) return null;
    return toResult(row, false);
  },

  async plan({ orderId, address }, ctx) {
    // The store's facts (the built-in store: our own row); the policy is ours.
    const order = await findCustomerOrder(orderId, ctx);
    if (!order) {
      throw new ToolBusinessError(
        "order_not_found",
        `No order ${orderId} was found for this customer.`,
      );
    }
    const to = destination(order, address);
    const refused = refusal(order, to);
    if (refused || !to) throw refused;
    return {
      target: { type: "order", id: order.id, version: order.version },
      plan: {
        effect: "change_delivery_address",
        order: { id: order.id, status: order.status, placedAt: order.placedAt.toISOString() },
        from: orderAddress(order),
        to,
        eligible: true,
        // The store is the warehouse's source for an order it holds: no webhook of ours.
        externalRequests: !order.store && webhookConfigured() ? 1 : 0,
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

  async commit({ orderId, address }, ctx) {
    if (ctx.plan.store) return changeAtStore(orderId, ctx, ctx.plan.store);
    const order = await getOrderForUser({ id: orderId, userId: ctx.userId });
    if (!order)
      return { kind: "stale", code: "order_not_found", message: "The order no longer exists." };
    const to = destination(order, address);
    // Equivalent without this early exit: at the plan's version the policy saw the same order and
    // arguments (a revision plans again), so only a moved version gets here, and the
    // compare-and-set below (same version, `processing`) rolls the insert back into the same stale.
    if (order.version !== ctx.target.version || refusal(order, to) || !to) {
      return { kind: "stale", ...CHANGED };
    }
    return await writeEffectOnce({
      insert: () =>
        insertAddressChangeIfAbsent({
          id: shortId("AC"),
          orderId,
          userId: ctx.userId,
          fromAddress: orderAddress(order),
          toAddress: to,
          actionId: ctx.actionId,
          operationId: ctx.actionId,
          createdAt: ctx.now,
        }),
      winner: () => getAddressChangeByOperationId({ operationId: ctx.actionId }),
      compareAndSet: () =>
        changeOrderAddressIfUnchanged({
          orderId,
          userId: ctx.userId,
          expectedVersion: ctx.target.version,
          address: to,
          now: ctx.now,
        }),
      toResult,
      // The warehouse hears of it through the outbox after the commit (docs/effects.md). The
      // change's id is the webhook's id: every retry of this delivery sends the same one.
      effects: (row) =>
        webhookConfigured()
          ? [
              {
                kind: "warehouse.address_changed",
                payload: {
                  webhookId: `msg_${row.id}`,
                  changeId: row.id,
                  orderId: row.orderId,
                  from: row.fromAddress ?? null,
                  to: row.toAddress,
                  changedAt: row.createdAt.toISOString(),
                },
              },
            ]
          : [],
      moved: CHANGED,
    });
  },

  async findEffect(operationId) {
    const row = await getAddressChangeByOperationId({ operationId });
    if (row) return toResult(row, true);
    const atStore = await getStoreOperationByOperationId({ operationId });
    return atStore?.toAddress ? storeResult(atStore, null, true) : null;
  },

  offline,

  triage: {
    category: meta.triage.category,
    story({ args, result, status, errorCode }) {
      const order = typeof args.orderId === "string" ? args.orderId : "(unknown)";
      const asked = `Customer asked to change the delivery address of order ${order}`;
      const r = RESULT.partial().safeParse(result).data;
      switch (status) {
        case "executed":
          return {
            summary: `${asked}; ${r?.createdNow === false ? "it already had that address" : "the address was changed"}.`,
            next: `Make sure the warehouse ships order ${order} to ${r?.to ? addressLine(r.to) : "the new address"} (change ${r?.changeId ?? ""}).`,
          };
        case "refused":
          return {
            summary: `${asked}; it was not possible (${errorCode}).`,
            next: "Reply only if the customer disputes the refusal; the policy decided.",
          };
        case "pending":
        case "executing":
          return {
            summary: `${asked}; a proposal awaits the customer's confirmation.`,
            next: `None yet: the customer has to confirm or cancel the new address of order ${order}.`,
          };
        case "failed":
          return {
            summary: `${asked}; the change failed (${errorCode ?? "error"}) and nothing was changed.`,
            next: `Investigate the failed address change of order ${order} and contact the customer.`,
          };
        case "stale":
          return {
            summary: `${asked}; the order changed (shipped?) before confirmation, so the address was not changed.`,
            next: `Check order ${order}; if it shipped, the carrier may still redirect it.`,
          };
        default:
          return {
            summary: `${asked}; the proposal was ${status}.`,
            next: "No action needed unless the customer asks again.",
          };
      }
    },
  },

  describe({ plan, result, effects }, { t, date }) {
    const orderId = plan.order.id;
    const to = addressLine(plan.to);
    const from = plan.from ? addressLine(plan.from) : t("rows.none");
    const values = { orderId, to, from };
    const notes = { orderId, to, changeId: result?.changeId ?? "" };
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
        { key: "address-from", label: t("rows.from"), value: from },
        { key: "address-to", label: t("rows.to"), value: to },
      ],
      amount: null,
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

/** How the webhook's progress colours the note: the change itself is made either way. */
const WEBHOOK_TONE: Record<EffectPhase, OutcomeNote["tone"]> = {
  processing: "success",
  succeeded: "success",
  failed: "warning",
  needs_attention: "warning",
  resolved: "neutral",
};

function outcomeNote(
  createdNow: boolean,
  effects: readonly EffectState[],
  notes: Record<string, string>,
  t: Translate,
): OutcomeNote {
  if (!createdNow) return { tone: "neutral", text: t("outcome.existed", notes) };
  // The store refused it: the order changed there after the plan (nothing was done).
  if (changedAtStore(effects, "store.change_address"))
    return { tone: "warning", text: t("outcome.storeChanged", notes) };
  const atStore = atStoreNote(effects, "store.change_address", (phase) =>
    t("outcome.atStore", { ...notes, phase }),
  );
  if (atStore) return atStore;
  const webhook = effects.find((e) => e.kind === "warehouse.address_changed");
  if (!webhook) return { tone: "success", text: t("outcome.created", notes) };
  const phase = effectPhase(webhook.status);
  return { tone: WEBHOOK_TONE[phase], text: t("outcome.warehouse", { ...notes, phase }) };
}
