/**
 * exchange_items (write): proposes exchanging a line of an order (or some of its units) for
 * another variant of the same product, another size; it runs only after the customer confirms.
 * Everything about the action lives in this folder: the policy (the line returnable by the return
 * policy, the same product, the new variant in stock, never dearer: we never charge in the chat),
 * the plan, the commit (compare-and-set on the order's version and on the variant's stock, so two
 * customers racing for the last unit get one exchange and one honest "sold out"), its effects (the
 * refund of a cheaper variant's difference, and the warehouse's webhook for the new item), the
 * card's wording and the staff triage story.
 *
 * On an order still processing it is a swap: the line's variant changes before it ships and
 * nothing comes back. On a delivered order it is an exchange: the new item goes out and the old
 * one is expected back like a return.
 */
import { z } from "zod";
import { getProductWithVariants, getVariant, reserveStock } from "@/db/queries/catalogue";
import {
  bumpOrderForExchange,
  getExchangeByOperationId,
  type ItemExchangeRow,
  insertExchangeIfAbsent,
  listExchangesForOrder,
} from "@/db/queries/item-exchanges";
import { getOrderForUser, type OrderItem, type OrderWithItems } from "@/db/queries/orders";
import {
  getStoreOperationByOperationId,
  type StoreOperationRow,
} from "@/db/queries/store-operations";
import { env } from "@/lib/env";
import { orderAddress } from "@/lib/orders/address";
import { store } from "@/lib/store";
import { ORDER_ID } from "../normalize";
import { chooseLines, namedLine, remaining } from "../order-lines";
import { returnEligibility } from "../return-policy";
import { ISO_DATE, REFUND } from "../shapes";
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
  /** The line: its lineId from get_order_status or the customer's words; absent: the only line. */
  line: z.string().trim().min(1).max(100).optional(),
  /** How many of its units (absent: all that are left). Checked by the policy, not the schema. */
  quantity: z.number().optional(),
  /**
   * The variant wanted, in the customer's terms: a size ("L", "43"), "bigger" or "smaller" (the
   * next size up or down), or a variant id.
   */
  to: z.string().trim().min(1).max(40),
});
export type ExchangeArgs = z.output<typeof args>;

const OPTIONS = z.record(z.string(), z.string());

/** What Confirm would do: the line, the variant it goes to, and any money back. */
const PLAN = z.strictObject({
  effect: z.literal("exchange_items"),
  order: z.strictObject({ id: z.string(), status: z.enum(["processing", "delivered"]) }),
  /** swap: before it ships, nothing comes back; exchange: after delivery, the old one comes back. */
  kind: z.enum(["swap", "exchange"]),
  line: z.strictObject({
    lineId: z.string(),
    name: z.string(),
    quantity: z.number().int().positive(),
    unitPrice: z.number().int(),
    from: z.strictObject({ variantId: z.string(), options: OPTIONS }),
  }),
  to: z.strictObject({ variantId: z.string(), options: OPTIONS, unitPrice: z.number().int() }),
  /** The return window's end for an exchange after delivery; null for a swap. */
  windowEndsAt: ISO_DATE.nullable(),
  /** The price difference of a cheaper variant, to the original payment method (0: none). */
  refund: REFUND,
  eligible: z.literal(true),
  /**
   * 1 when the warehouse will be told by webhook after the confirm, 0 when none is configured
   * (and for an order at the connected store, whose exchange is the store's own).
   */
  externalRequests: z.union([z.literal(0), z.literal(1)]),
  /**
   * The order at the connected store (STORE_BACKEND=medusa): the exchange is made there, through
   * the outbox, only if the order still has this updated_at. Absent for the built-in store.
   */
  store: z
    .strictObject({ backend: z.literal("medusa"), ref: z.string(), updatedAt: z.string() })
    .optional(),
});
type Plan = z.output<typeof PLAN>;

const RESULT = z.strictObject({
  exchangeId: z.string(),
  orderId: z.string(),
  kind: z.enum(["swap", "exchange"]),
  /** false when this action's exchange was already there (crash recovery). */
  createdNow: z.boolean(),
  lineId: z.string(),
  quantity: z.number().int(),
  fromVariantId: z.string(),
  toVariantId: z.string(),
  refund: REFUND,
  exchangedAt: ISO_DATE,
});
type ExchangeResult = z.output<typeof RESULT>;

function toResult(row: ItemExchangeRow, createdNow: boolean): ExchangeResult {
  return {
    exchangeId: row.id,
    orderId: row.orderId,
    kind: row.kind,
    createdNow,
    lineId: String(row.orderItemId),
    quantity: row.quantity,
    fromVariantId: row.fromVariantId,
    toVariantId: row.toVariantId,
    refund: {
      amount: row.refundAmountMinor,
      currency: row.refundCurrency,
      destination: row.refundDestination,
    },
    exchangedAt: row.createdAt.toISOString(),
  };
}

const CHANGED = {
  code: "order_changed",
  message: "The order changed (it may have shipped) after the exchange was proposed.",
};
const SOLD_OUT = {
  code: "sold_out",
  message:
    "That size has just sold out: the last unit went to someone else after the exchange was proposed. Nothing was changed.",
};

const eur = (minor: number, currency: string) => `${(minor / 100).toFixed(2)} ${currency}`;
const optionWords = (o: Record<string, string>) =>
  Object.entries(o)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ") || "one size";

/** A variant as the exchange chooses it: the built-in catalogue's row, or the store's. */
type Variant = {
  id: string;
  productId: string;
  options: Record<string, string>;
  priceMinor: number;
  currency: string;
  stock: number;
};

/**
 * Where the exchange finds the line's product and its variants: our catalogue for our orders, the
 * store's products for an order at the connected store.
 */
type Catalogue = {
  product(productId: string): Promise<{ id: string; name: string; variants: Variant[] } | null>;
  /** A variant by its id wherever it is (to tell "another product's" from "no such"). */
  variant(id: string): Promise<{ productId: string } | null>;
};

const builtinCatalogue: Catalogue = {
  product: (productId) => getProductWithVariants({ productId }),
  variant: (id) => getVariant({ id }),
};

/** The store's products, in the order's currency; a variant id of another product is unknown. */
const storeCatalogue = (currency: string): Catalogue => ({
  product: async (productId) => (await store().product?.(productId, currency)) ?? null,
  variant: async () => null,
});

const UP =
  /^(bigger|larger|up|\+1|next|a size (bigger|up|larger)|one size (bigger|up|larger)|size up|больше|на размер больше)$/;
const DOWN =
  /^(smaller|down|-1|previous|a size (smaller|down)|one size (smaller|down)|size down|меньше|на размер меньше)$/;

/** The variant the customer named, among the line's product's; a business error otherwise. */
async function targetVariant(
  item: OrderItem & { variant: NonNullable<OrderItem["variant"]> },
  to: string,
  quantity: number,
  catalogue: Catalogue,
): Promise<Variant> {
  const product = await catalogue.product(item.variant.productId);
  if (!product) throw new Error(`the catalogue has no product ${item.variant.productId}`);
  const inStock = product.variants
    .filter((v) => v.stock >= quantity && v.id !== item.variant.id)
    .map((v) => optionWords(v.options));
  const offer = inStock.length
    ? `In stock: ${inStock.join("; ")}.`
    : `No other ${product.name} variant is in stock.`;
  const words = to
    .toLowerCase()
    .replace(/\b(size|размер|in|в)\b/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  const here = product.variants.findIndex((v) => v.id === item.variant.id);
  const step = UP.test(words) ? 1 : DOWN.test(words) ? -1 : 0;
  let found: Variant | undefined;
  if (step !== 0) {
    found = product.variants[here + step];
    if (!found) {
      throw new ToolBusinessError(
        "unknown_variant",
        `There is no ${step > 0 ? "bigger" : "smaller"} ${product.name} than ${optionWords(item.variant.options)}. ${offer} Ask the customer which one.`,
      );
    }
  } else {
    found =
      product.variants.find((v) => v.id === to) ??
      product.variants.find((v) =>
        Object.values(v.options).some((value) => value.toLowerCase() === words),
      );
  }
  if (!found) {
    const elsewhere = await catalogue.variant(to);
    if (elsewhere && elsewhere.productId !== product.id) {
      throw new ToolBusinessError(
        "other_product",
        `An exchange keeps the same product: ${item.name} can only be exchanged for another ${product.name} variant. ${offer}`,
      );
    }
    throw new ToolBusinessError(
      "unknown_variant",
      `${product.name} has no variant "${to}". ${offer} Ask the customer which one.`,
    );
  }
  if (found.id === item.variant.id) {
    throw new ToolBusinessError(
      "same_variant",
      `The ${item.name} already is ${optionWords(found.options)}. ${offer}`,
    );
  }
  if (found.stock < quantity) {
    throw new ToolBusinessError(
      "out_of_stock",
      `${product.name} in ${optionWords(found.options)} is out of stock${found.stock > 0 ? ` (only ${found.stock} left)` : ""}. ${offer}`,
    );
  }
  if (found.priceMinor > item.unitPriceMinor) {
    throw new ToolBusinessError(
      "dearer_variant",
      `${product.name} in ${optionWords(found.options)} costs ${eur(found.priceMinor, found.currency)}, more than the ${eur(item.unitPriceMinor, found.currency)} paid: we never charge in the chat, so it cannot be exchanged here. A cheaper or same-price size can be.`,
    );
  }
  return found;
}

/**
 * The policy, the same at the plan and at the confirm: what the exchange would be, or a business
 * error. Reads only.
 */
async function decide(
  order: OrderWithItems,
  a: ExchangeArgs,
  now: Date,
  catalogue: Catalogue = builtinCatalogue,
) {
  let kind: Plan["kind"];
  let windowEndsAt: Date | null = null;
  if (order.status === "processing") kind = "swap";
  else if (order.status === "delivered") {
    const rule = returnEligibility(order, now);
    if (!rule.eligible) throw new ToolBusinessError(rule.code, rule.message);
    kind = "exchange";
    windowEndsAt = rule.windowEndsAt;
  } else if (order.status === "cancelled") {
    throw new ToolBusinessError("order_cancelled", `Order ${order.id} is cancelled.`);
  } else {
    throw new ToolBusinessError(
      "already_shipped",
      `Order ${order.id} is on its way (status: ${order.status}): its items can be exchanged once it is delivered.`,
    );
  }
  const [chosen] = chooseLines(order, [{ line: a.line, quantity: a.quantity }], "exchange");
  const item = chosen!.item;
  const variant = item.variant;
  if (!variant) {
    throw new ToolBusinessError(
      "not_exchangeable",
      `The ${item.name} of order ${order.id} comes in one version only: it can be returned, not exchanged.`,
    );
  }
  const to = await targetVariant({ ...item, variant }, a.to, chosen!.quantity, catalogue);
  const refund = (item.unitPriceMinor - to.priceMinor) * chosen!.quantity;
  return { kind, windowEndsAt, item: { ...item, variant }, quantity: chosen!.quantity, to, refund };
}

/** The warehouse is told only when a webhook is configured; without one the exchange is still made. */
const webhookConfigured = () => Boolean(env().WAREHOUSE_WEBHOOK_URL);

/**
 * Takes the units from the variant's stock by compare-and-set on its stock version: re-read and
 * try again when someone else changed the stock in between, until it holds or there are too few.
 */
async function reserve(variantId: string, quantity: number): Promise<boolean> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const v = await getVariant({ id: variantId });
    if (!v || v.stock < quantity) return false;
    if (await reserveStock({ variantId, quantity, expectedVersion: v.stockVersion })) return true;
  }
  return false;
}

export const exchangeItems: WriteTool<"exchange_items", typeof args, typeof RESULT, typeof PLAN> = {
  name: meta.name,
  help: meta.help,
  access: "write",
  // Which line, which size and how many are what the exchange is: asking again makes a new card.
  editable: [] satisfies (keyof ExchangeArgs)[],
  description:
    "Propose exchanging an item of one of the customer's orders for another variant (size) of " +
    "the same product. On an order not shipped yet it changes the size before it ships; on a " +
    "delivered order (inside the return window) the new item is sent and the old one comes " +
    "back. `line` is the item's lineId from get_order_status (or the customer's words for it; " +
    "left out only when the order has one item), `quantity` how many (left out: all of them), " +
    '`to` the size wanted (e.g. "L", "43"), or "bigger"/"smaller" for a size up or down. ' +
    "A dearer size is refused (nothing is ever charged in the chat); a cheaper one refunds the " +
    "difference. Never pass a price. It does not change anything by itself: the customer sees " +
    "a confirmation card and must press Confirm.",
  args,
  result: RESULT,
  planSchema: PLAN,

  // The business key: a line exchanged in full has its exchange, and asking again answers
  // with it (createdNow: false) rather than a refusal. A line with units left can be exchanged
  // again; a second confirm racing the first finds the order's version moved.
  async findExisting({ orderId, line }, ctx) {
    const order = await getOrderForUser({ id: orderId, userId: ctx.userId });
    const item = order && namedLine(order, line);
    if (!item || remaining(item) > 0 || item.exchangedQuantity === 0) return null;
    const rows = await listExchangesForOrder(orderId, ctx.userId);
    const row = rows.filter((r) => String(r.orderItemId) === item.lineId).at(-1);
    return row ? toResult(row, false) : null;
  },

  async plan(a, ctx) {
    const order = await findCustomerOrder(a.orderId, ctx);
    if (!order) {
      throw new ToolBusinessError(
        "order_not_found",
        `No order ${a.orderId} was found for this customer.`,
      );
    }
    const d = await decide(
      order,
      a,
      ctx.now,
      order.store ? storeCatalogue(order.currency) : builtinCatalogue,
    );
    const refund = Math.max(0, d.refund);
    return {
      target: { type: "order", id: order.id, version: order.version },
      plan: {
        effect: "exchange_items",
        order: { id: order.id, status: d.kind === "swap" ? "processing" : "delivered" },
        kind: d.kind,
        line: {
          lineId: d.item.lineId,
          name: d.item.name,
          quantity: d.quantity,
          unitPrice: d.item.unitPriceMinor,
          from: { variantId: d.item.variant.id, options: d.item.variant.options },
        },
        to: { variantId: d.to.id, options: d.to.options, unitPrice: d.to.priceMinor },
        windowEndsAt: d.windowEndsAt?.toISOString() ?? null,
        refund: { amount: refund, currency: order.currency, destination: order.paymentMethod },
        eligible: true,
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

  async commit(a, ctx) {
    if (ctx.plan.store) return exchangeAtStore(a, ctx, ctx.plan.store);
    const order = await getOrderForUser({ id: a.orderId, userId: ctx.userId });
    if (!order)
      return { kind: "stale", code: "order_not_found", message: "The order no longer exists." };
    if (order.version !== ctx.target.version) return { kind: "stale", ...CHANGED };
    let d: Awaited<ReturnType<typeof decide>>;
    try {
      d = await decide(order, a, ctx.now);
    } catch (err) {
      if (!(err instanceof ToolBusinessError)) throw err;
      // The size sold out since the plan: say so plainly; any other change is the order's.
      if (err.code === "out_of_stock") return { kind: "stale", ...SOLD_OUT };
      return { kind: "stale", code: err.code, message: err.message };
    }
    // The plan's exchange and nothing else: a variant that changed price since would be another.
    if (d.to.id !== ctx.plan.to.variantId || Math.max(0, d.refund) !== ctx.plan.refund.amount)
      return { kind: "stale", ...CHANGED };
    const status = order.status as "processing" | "delivered";
    return await writeEffectOnce({
      insert: () =>
        insertExchangeIfAbsent({
          id: shortId("EX"),
          orderId: order.id,
          userId: ctx.userId,
          orderItemId: Number(d.item.lineId),
          kind: d.kind,
          quantity: d.quantity,
          fromVariantId: d.item.variant.id,
          toVariantId: d.to.id,
          refundAmountMinor: ctx.plan.refund.amount,
          refundCurrency: order.currency,
          refundDestination: order.paymentMethod,
          actionId: ctx.actionId,
          operationId: ctx.actionId,
          createdAt: ctx.now,
        }),
      winner: () => getExchangeByOperationId({ operationId: ctx.actionId }),
      compareAndSet: async () => {
        const moved = await bumpOrderForExchange({
          orderId: order.id,
          userId: ctx.userId,
          expectedVersion: ctx.target.version,
          status,
          now: ctx.now,
        });
        if (!moved) return false;
        return (await reserve(d.to.id, d.quantity)) ? true : SOLD_OUT;
      },
      toResult,
      effects: (row) => [
        ...(row.refundAmountMinor > 0
          ? [
              {
                kind: "payment.refund" as const,
                payload: {
                  orderId: row.orderId,
                  paymentRef: order.paymentRef,
                  amount: row.refundAmountMinor,
                  currency: row.refundCurrency,
                },
              },
            ]
          : []),
        // The new item (and, for a swap, the change of what ships) goes to the warehouse
        // through the outbox; the exchange's id is the webhook's id on every retry.
        ...(webhookConfigured()
          ? [
              {
                kind: "warehouse.event" as const,
                payload: {
                  webhookId: `msg_${row.id}`,
                  type: "warehouse.items_exchanged",
                  timestamp: row.createdAt.toISOString(),
                  data: {
                    exchangeId: row.id,
                    orderId: row.orderId,
                    kind: row.kind,
                    lineId: String(row.orderItemId),
                    name: d.item.name,
                    quantity: row.quantity,
                    from: { variantId: row.fromVariantId, options: d.item.variant.options },
                    to: { variantId: row.toVariantId, options: d.to.options },
                    // After delivery the old units come back; before shipping nothing does.
                    returnExpected: row.kind === "exchange",
                    deliverTo: orderAddress(order),
                  },
                },
              },
            ]
          : []),
      ],
      moved: CHANGED,
    });
  },

  async findEffect(operationId) {
    const row = await getExchangeByOperationId({ operationId });
    if (row) return toResult(row, true);
    const atStore = await getStoreOperationByOperationId({ operationId });
    return atStore?.kind === "exchange" ? storeResult(atStore, true) : null;
  },

  offline,

  triage: {
    category: meta.triage.category,
    story({ args: asked, result, status, errorCode }) {
      const order = typeof asked.orderId === "string" ? asked.orderId : "(unknown)";
      const to = typeof asked.to === "string" ? ` for ${asked.to}` : "";
      const what = `Customer asked to exchange an item of order ${order}${to}`;
      const r = RESULT.partial().safeParse(result).data;
      switch (status) {
        case "executed":
          return {
            summary: `${what}; exchange ${r?.exchangeId ?? ""} was made.`,
            next:
              r?.kind === "exchange"
                ? `Make sure the new item of order ${order} ships and receive the old one when it comes back.`
                : `Make sure order ${order} ships with the new size.`,
          };
        case "refused":
          return {
            summary: `${what}; it was not possible (${errorCode}).`,
            next: "Reply only if the customer disputes the refusal; the policy decided.",
          };
        case "pending":
        case "executing":
          return {
            summary: `${what}; a proposal awaits the customer's confirmation.`,
            next: `None yet: the customer has to confirm or cancel the exchange for order ${order}.`,
          };
        case "failed":
          return {
            summary: `${what}; the exchange failed (${errorCode ?? "error"}) and nothing was changed.`,
            next: `Investigate the failed exchange for order ${order} and contact the customer.`,
          };
        case "stale":
          return {
            summary: `${what}; ${errorCode === "sold_out" ? "the size sold out" : "the order changed"} before confirmation, so nothing was exchanged.`,
            next: `Check order ${order} and the stock, and help the customer ask again.`,
          };
        default:
          return {
            summary: `${what}; the proposal was ${status}.`,
            next: "No action needed unless the customer asks again.",
          };
      }
    },
  },

  describe({ plan, result, effects }, { t, money }) {
    const currency = plan.refund.currency;
    const option = (o: Record<string, string>) =>
      Object.entries(o)
        .map(([name, value]) => t("option", { name, value }))
        .join(", ");
    const from = option(plan.line.from.options);
    const to = option(plan.to.options);
    const amount = money(plan.refund.amount, currency);
    const values = {
      orderId: plan.order.id,
      kind: plan.kind,
      quantity: plan.line.quantity,
      name: plan.line.name,
      from,
      to,
      amount,
      destination: plan.refund.destination,
      hasRefund: plan.refund.amount > 0 ? "yes" : "no",
    };
    const notes = { orderId: plan.order.id, exchangeId: result?.exchangeId ?? "" };
    return {
      title: t("title"),
      summary: t("summary", values),
      subject: t("subject", values),
      approval: t("approval", values),
      rows: [
        {
          key: "order",
          label: t("rows.order"),
          value: t("rows.orderValue", { orderId: plan.order.id, status: plan.order.status }),
        },
        {
          key: "item",
          label: t("rows.item"),
          value: t("rows.itemValue", {
            quantity: plan.line.quantity,
            name: plan.line.name,
            from,
            price: money(plan.line.unitPrice, currency),
          }),
        },
        {
          key: "to",
          label: t("rows.to"),
          value: t("rows.toValue", { to, price: money(plan.to.unitPrice, currency) }),
        },
        { key: "how", label: t("rows.how"), value: t("rows.howValue", { kind: plan.kind }) },
      ],
      amount:
        plan.refund.amount > 0
          ? {
              key: "refund",
              label: t("rows.refund"),
              value: amount,
              detail: t("rows.refundTo", { destination: plan.refund.destination }),
            }
          : { key: "refund", label: t("rows.refund"), value: t("rows.noRefund"), detail: null },
      warning: null,
      confirmation: t("confirmation", values),
      outcome: result ? outcomeNote(result.createdNow, effects, { ...values, ...notes }, t) : null,
      notes: {
        // At the store the confirm only queued the exchange: the chat must not say it is made.
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

const REFUND_TONE: Record<EffectPhase, OutcomeNote["tone"]> = {
  processing: "success",
  succeeded: "success",
  failed: "warning",
  needs_attention: "warning",
  resolved: "neutral",
};

/** The card's note once the exchange exists: with its refund's progress when there is one. */
function outcomeNote(
  createdNow: boolean,
  effects: readonly EffectState[],
  values: Record<string, string | number>,
  t: Translate,
): OutcomeNote {
  if (!createdNow) return { tone: "neutral", text: t("outcome.existed", values) };
  // At the store: refused because the order changed there (nothing was done), or not there yet.
  if (changedAtStore(effects, "store.exchange_items"))
    return { tone: "warning", text: t("outcome.storeChanged", values) };
  const atStore = atStoreNote(effects, "store.exchange_items", (phase) =>
    t("outcome.atStore", { ...values, phase }),
  );
  if (atStore) return atStore;
  const refund = effects.find((e) => e.kind === "payment.refund");
  if (!refund) return { tone: "success", text: t("outcome.created", values) };
  const phase = effectPhase(refund.status);
  return { tone: REFUND_TONE[phase], text: t("outcome.refund", { ...values, phase }) };
}

/** An exchange recorded for an order at the store, as the tool's result. */
function storeResult(row: StoreOperationRow, createdNow: boolean): ExchangeResult {
  // A store operation of kind "exchange" is written with its exchange (exchangeAtStore).
  const x = row.exchange!;
  return {
    exchangeId: row.id,
    orderId: row.orderId,
    kind: x.kind,
    createdNow,
    lineId: x.lineId,
    quantity: x.quantity,
    fromVariantId: x.fromVariantId,
    toVariantId: x.toVariantId,
    refund: {
      amount: row.refundAmountMinor,
      currency: row.refundCurrency,
      destination: row.refundDestination,
    },
    exchangedAt: row.createdAt.toISOString(),
  };
}

/**
 * The commit for an order at the connected store (../store-write.ts): the plan's exchange (after
 * delivery) or size change (before it ships),
 * recorded under the action, and made at the store by the outbox's `store.exchange_items`, which
 * refunds a cheaper variant's difference there too. The store's stock is the store's: it refuses
 * an outbound item it does not have, so nothing is reserved here.
 */
function exchangeAtStore(
  a: ExchangeArgs,
  ctx: { actionId: string; userId: string; plan: Plan; now: Date },
  at: NonNullable<Plan["store"]>,
) {
  const { plan } = ctx;
  return commitAtStore({
    at,
    actionId: ctx.actionId,
    row: {
      id: shortId("EX"),
      kind: "exchange",
      orderId: a.orderId,
      userId: ctx.userId,
      reason: null,
      comment: null,
      refundAmountMinor: plan.refund.amount,
      refundCurrency: plan.refund.currency,
      refundDestination: plan.refund.destination,
      exchange: {
        kind: plan.kind,
        lineId: plan.line.lineId,
        quantity: plan.line.quantity,
        fromVariantId: plan.line.from.variantId,
        toVariantId: plan.to.variantId,
      },
      createdAt: ctx.now,
    },
    effect: {
      kind: "store.exchange_items",
      extra: {
        kind: plan.kind,
        lineId: plan.line.lineId,
        quantity: plan.line.quantity,
        toVariantId: plan.to.variantId,
        refund: plan.refund.amount,
        currency: plan.refund.currency,
      },
    },
    toResult: storeResult,
  });
}
