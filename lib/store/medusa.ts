/**
 * A Medusa v2 store through its Admin API and the official SDK (@medusajs/js-sdk), with a secret
 * API key (sent as HTTP Basic by the SDK). docs/stores.md has the operator's side.
 *
 * - Reads list the linked store customer's orders (`customer_id`), so another customer's order
 *   is never fetched at all: it reads as missing, the same answer as an order that does not exist.
 * - Every request has MEDUSA_TIMEOUT_MS. A read that gets no answer (refused, timeout, 5xx) is
 *   StoreUnreachableError; a write's unknown outcome is `indeterminate`, and the relay looks it
 *   up before anything is sent again.
 * - A cancel first writes our operation id into the order's metadata, then cancels. Medusa keeps
 *   the order's metadata across the cancel, so "cancelled and carries our id" is where the lookup
 *   after a lost answer starts; the order's version and updated_at alone cannot tell whose cancel
 *   it was. Nor can our id alone: a merchant may cancel the order after our metadata write and
 *   before our cancel. So the lookup also asks who: Medusa records the actor of the metadata
 *   write (the order change's `created_by`) and of the cancel's refunds (`created_by`), and the
 *   cancel is ours only when they are the same actor.
 */
import "server-only";
import Medusa, { FetchError } from "@medusajs/js-sdk";
import { z } from "zod";
import type { OrderStatus } from "@/db/schema";
import {
  ALREADY_CANCELLED_AT_STORE,
  ORDER_CHANGED_AT_STORE,
  type Store,
  type StoreAddress,
  type StoreAddressChange,
  type StoreCancel,
  type StoreCustomer,
  type StoreExchange,
  type StoreLookupOutcome,
  type StoreOrder,
  type StoreReceipt,
  type StoreReturn,
  StoreUnreachableError,
  type StoreWriteOutcome,
} from "./types";

/** Where our operation id lives in the Medusa order's metadata. */
export const OPERATION_METADATA_KEY = "returns_desk_cancel_operation_id";
/** Where a return's operation id lives in the Medusa return's metadata. */
export const RETURN_METADATA_KEY = "returns_desk_return_operation_id";
/** Where an exchange's operation id lives in the Medusa exchange's metadata. */
export const EXCHANGE_METADATA_KEY = "returns_desk_exchange_operation_id";
/** Where an address change's operation id lives in the Medusa order's metadata. */
export const ADDRESS_METADATA_KEY = "returns_desk_address_operation_id";
/** A refund's note at Medusa (its refunds carry no metadata): the return's operation id. */
export const refundNote = (operationId: string) => `returns_desk:${operationId}`;

const FIELDS = [
  "id",
  "display_id",
  "status",
  "version",
  "created_at",
  "updated_at",
  "canceled_at",
  "currency_code",
  "total",
  "metadata",
  "customer_id",
  // What a shopper without an account verifies the order by (every Medusa order has one).
  "email",
  "fulfillment_status",
  "items.id",
  "items.title",
  "items.quantity",
  "items.unit_price",
  // How many units of each line are in the order's returns already.
  "items.detail.return_requested_quantity",
  "items.detail.return_received_quantity",
  "*shipping_address",
  "fulfillments.shipped_at",
  "fulfillments.delivered_at",
  // Where the order left from: a return of stocked items goes back there.
  "fulfillments.location_id",
  // The order's returns at the store, for "Return requested" on the orders page and in
  // get_order_status: read with the order itself, no second request.
  "returns.id",
  "returns.status",
  "returns.metadata",
];

/**
 * One order's lines with their variant: its product, options and rank among the product's
 * variants, and whether the product is final sale. Read for the one order a tool acts on, not for
 * the customer's list: joined for every order of a list, they make its read about half as slow
 * again, and the list's time is bounded by MEDUSA_TIMEOUT_MS.
 */
const LINE_FIELDS = [
  "items.variant_id",
  "items.variant.product_id",
  "items.variant.variant_rank",
  "items.variant.options.value",
  "items.variant.options.option.title",
  "items.variant.product.metadata",
];
const ORDER_FIELDS = [...FIELDS, ...LINE_FIELDS].join(",");
const LIST_FIELDS = FIELDS.join(",");

const when = z.string().nullish();

/** What we read of a Medusa order (its API's outside input: parsed, unknown keys dropped). */
const MEDUSA_ORDER = z.object({
  id: z.string(),
  display_id: z.number().int(),
  status: z.string(),
  version: z.number().int().nullish(),
  created_at: z.string(),
  updated_at: z.string(),
  canceled_at: when,
  currency_code: z.string(),
  total: z.number(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  customer_id: z.string().nullish(),
  email: z.string().nullish(),
  fulfillment_status: z.string().nullish(),
  items: z
    .array(
      z.object({
        id: z.string(),
        title: z.string(),
        quantity: z.number(),
        unit_price: z.number(),
        variant_id: z.string().nullish(),
        variant: z
          .object({
            product_id: z.string().nullish(),
            variant_rank: z.number().nullish(),
            options: z
              .array(
                z.object({
                  value: z.string(),
                  option: z.object({ title: z.string() }).nullish(),
                }),
              )
              .nullish(),
            product: z.object({ metadata: z.record(z.string(), z.unknown()).nullish() }).nullish(),
          })
          .nullish(),
        detail: z
          .object({
            return_requested_quantity: z.number().nullish(),
            return_received_quantity: z.number().nullish(),
          })
          .nullish(),
      }),
    )
    .nullish(),
  shipping_address: z
    .object({
      first_name: z.string().nullish(),
      last_name: z.string().nullish(),
      address_1: z.string().nullish(),
      address_2: z.string().nullish(),
      postal_code: z.string().nullish(),
      city: z.string().nullish(),
      country_code: z.string().nullish(),
    })
    .nullish(),
  fulfillments: z
    .array(z.object({ shipped_at: when, delivered_at: when, location_id: z.string().nullish() }))
    .nullish(),
  returns: z
    .array(
      z.object({
        id: z.string(),
        status: z.string(),
        metadata: z.record(z.string(), z.unknown()).nullish(),
      }),
    )
    .nullish(),
});
type MedusaOrder = z.output<typeof MEDUSA_ORDER>;

const LIST = z.object({ orders: z.array(MEDUSA_ORDER) });
const ONE = z.object({ order: MEDUSA_ORDER });

/** A Medusa return, as far as the lookup needs it. */
const MEDUSA_RETURN = z.object({
  id: z.string(),
  status: z.string(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
const RETURNS = z.object({ returns: z.array(MEDUSA_RETURN) });
type MedusaReturn = z.output<typeof MEDUSA_RETURN>;

/** A Medusa exchange, as far as the lookup needs it: our id, and whether it was requested. */
const MEDUSA_EXCHANGE = z.object({
  id: z.string(),
  canceled_at: when,
  metadata: z.record(z.string(), z.unknown()).nullish(),
  return: z.object({ status: z.string() }).nullish(),
});
const EXCHANGES = z.object({ exchanges: z.array(MEDUSA_EXCHANGE) });
type MedusaExchange = z.output<typeof MEDUSA_EXCHANGE>;

/** A product with its variants: options, rank, prices and what is available of each. */
const MEDUSA_PRODUCT = z.object({
  product: z.object({
    id: z.string(),
    title: z.string(),
    variants: z.array(
      z.object({
        id: z.string(),
        variant_rank: z.number().nullish(),
        manage_inventory: z.boolean().nullish(),
        allow_backorder: z.boolean().nullish(),
        options: z
          .array(z.object({ value: z.string(), option: z.object({ title: z.string() }).nullish() }))
          .nullish(),
        prices: z.array(z.object({ amount: z.number(), currency_code: z.string() })).nullish(),
        inventory_items: z
          .array(
            z.object({
              required_quantity: z.number().nullish(),
              inventory: z
                .object({
                  location_levels: z
                    .array(z.object({ available_quantity: z.number().nullish() }))
                    .nullish(),
                })
                .nullish(),
            }),
          )
          .nullish(),
      }),
    ),
  }),
});
const PRODUCT_FIELDS = [
  "id",
  "title",
  "variants.id",
  "variants.variant_rank",
  "variants.manage_inventory",
  "variants.allow_backorder",
  "variants.options.value",
  "variants.options.option.title",
  "variants.prices.amount",
  "variants.prices.currency_code",
  "variants.inventory_items.required_quantity",
  "variants.inventory_items.inventory.location_levels.available_quantity",
].join(",");

/** Units of a variant available at the store: its inventory's, per unit it needs of each. */
function available(v: z.output<typeof MEDUSA_PRODUCT>["product"]["variants"][number]): number {
  if (v.manage_inventory === false || v.allow_backorder) return Number.MAX_SAFE_INTEGER;
  const per = (v.inventory_items ?? []).map((i) => {
    const units = (i.inventory?.location_levels ?? []).reduce(
      (sum, l) => sum + (l.available_quantity ?? 0),
      0,
    );
    return Math.floor(units / Math.max(1, i.required_quantity ?? 1));
  });
  return per.length ? Math.max(0, Math.min(...per)) : 0;
}

/** The order's payments and their refunds (Medusa's amounts are major units). */
const PAYMENTS = z.object({
  order: z.object({
    payment_collections: z
      .array(
        z.object({
          payments: z
            .array(
              z.object({
                id: z.string(),
                amount: z.number(),
                captured_at: when,
                refunds: z
                  .array(
                    z.object({
                      id: z.string(),
                      amount: z.number(),
                      note: z.string().nullish(),
                      // Who made it and when: read by the cancel's lookup only.
                      created_by: z.string().nullish(),
                      created_at: z.string().nullish(),
                    }),
                  )
                  .nullish(),
              }),
            )
            .nullish(),
        }),
      )
      .nullish(),
  }),
});

/**
 * The order's changes of one type (`GET /admin/orders/{id}/changes`): who made each and when.
 * An action's details are kept as they come; the metadata ones are read with METADATA_DETAILS.
 */
const ORDER_CHANGES = z.object({
  order_changes: z.array(
    z.object({
      created_by: z.string().nullish(),
      created_at: z.string(),
      actions: z.array(z.object({ details: z.unknown() })).nullish(),
    }),
  ),
});
/** An update_order action's details when it wrote the order's metadata (its `new` is the body's). */
const METADATA_DETAILS = z.object({
  type: z.literal("metadata"),
  new: z.record(z.string(), z.unknown()).nullish(),
});

/** The cancel's lookup could not find who wrote our id: someone must look (an unknown outcome). */
export const CANCEL_AUTHOR_UNKNOWN = "cancel_author_unknown_at_store";

export type MedusaConfig = { url: string; apiKey: string; timeoutMs: number };

/** Medusa's amounts are in the currency's major unit; ours are minor units. */
function fractionDigits(currency: string): number {
  return (
    new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions()
      .maximumFractionDigits ?? 2
  );
}
function minorUnits(amount: number, currency: string): number {
  return Math.round(amount * 10 ** fractionDigits(currency));
}
function majorUnits(amount: number, currency: string): number {
  return amount / 10 ** fractionDigits(currency);
}

/** Our address as Medusa's: the recipient's last word is the last name. */
function medusaAddress(a: StoreAddress) {
  const name = a.name.trim();
  const cut = name.lastIndexOf(" ");
  return {
    first_name: cut > 0 ? name.slice(0, cut) : name,
    last_name: cut > 0 ? name.slice(cut + 1) : "",
    address_1: a.line1,
    address_2: a.line2 ?? "",
    postal_code: a.postalCode,
    city: a.city,
    country_code: a.country.toLowerCase(),
  };
}

/** A return that the store has requested (or already received): not a draft of one. */
const REQUESTED = new Set(["requested", "received", "partially_received"]);
const RECEIVED = new Set(["received", "partially_received"]);

const latest = (dates: (string | null | undefined)[]) => {
  const times = dates.filter((d): d is string => !!d).map((d) => Date.parse(d));
  return times.length > 0 ? new Date(Math.max(...times)) : null;
};

/** The store's facts in our terms; the policy code then decides on them as on our own orders. */
function status(o: MedusaOrder): OrderStatus {
  if (o.status === "canceled") return "cancelled";
  switch (o.fulfillment_status) {
    case "delivered":
      return "delivered";
    case "shipped":
    case "partially_delivered":
      return "shipped";
    default:
      return "processing";
  }
}

/**
 * What the order cost. Medusa computes `total` over what is still ordered, so a cancelled order
 * says 0 there; the customer paid for its items, and that is what the orders page shows.
 */
function orderTotal(o: MedusaOrder): number {
  if (o.status !== "canceled" || o.total !== 0) return o.total;
  return (o.items ?? []).reduce((sum, i) => sum + i.unit_price * i.quantity, 0);
}

/** A product's metadata key that makes its items final sale (not returnable). */
export const FINAL_SALE_METADATA_KEY = "final_sale";

/**
 * The option Medusa's admin gives a product that comes in one version (Medusa wants an option on
 * every product): not an option in our terms.
 */
const DEFAULT_OPTION = "Default option";

/** A line's variant in our terms: its options by their title, lower-cased ("size": "M"). */
function lineVariant(i: NonNullable<MedusaOrder["items"]>[number]) {
  const productId = i.variant?.product_id;
  if (!i.variant_id || !productId) return null;
  return {
    id: i.variant_id,
    productId,
    options: Object.fromEntries(
      (i.variant?.options ?? [])
        .filter((o) => o.option?.title && o.option.title !== DEFAULT_OPTION)
        .map((o) => [o.option!.title.toLowerCase(), o.value]),
    ),
    position: i.variant?.variant_rank ?? 0,
  };
}

export function toStoreOrder(o: MedusaOrder, userId: string): StoreOrder {
  const currency = o.currency_code.toUpperCase();
  const a = o.shipping_address;
  const name = [a?.first_name, a?.last_name].filter(Boolean).join(" ");
  const fulfillments = o.fulfillments ?? [];
  const hasAddress = !!(a?.address_1 && a.city && a.postal_code && a.country_code);
  return {
    id: String(o.display_id),
    userId,
    status: status(o),
    placedAt: new Date(o.created_at),
    shippedAt: latest(fulfillments.map((f) => f.shipped_at)),
    deliveredAt: latest(fulfillments.map((f) => f.delivered_at)),
    etaAt: null,
    totalMinor: minorUnits(orderTotal(o), currency),
    currency,
    paymentMethod: "the original payment method",
    paymentRef: null,
    deliveryNote: null,
    deliveryName: hasAddress ? name || null : null,
    deliveryLine1: hasAddress ? (a?.address_1 ?? null) : null,
    deliveryLine2: hasAddress ? a?.address_2 || null : null,
    deliveryPostalCode: hasAddress ? (a?.postal_code ?? null) : null,
    deliveryCountry: hasAddress ? (a?.country_code?.toUpperCase() ?? null) : null,
    deliveryCity: hasAddress ? (a?.city ?? null) : null,
    version: o.version ?? 1,
    updatedAt: new Date(o.updated_at),
    // Lines by the store's own item id, with their variant of a catalogue product (none for a
    // custom line, and none in a list: LINE_FIELDS), final sale from the product's metadata, and
    // the units already in a return at the store (requested or received), so a second return
    // cannot take them again.
    items: (o.items ?? []).map((i) => ({
      lineId: i.id,
      name: i.title,
      quantity: i.quantity,
      unitPriceMinor: minorUnits(i.unit_price, currency),
      variant: lineVariant(i),
      finalSale: i.variant?.product?.metadata?.[FINAL_SALE_METADATA_KEY] === true,
      returnedQuantity:
        (i.detail?.return_requested_quantity ?? 0) + (i.detail?.return_received_quantity ?? 0),
      exchangedQuantity: 0,
      exchanges: [],
    })),
    // Our record of the return is joined on by lib/store/index.ts, from these operation ids.
    returnRequest: null,
    store: {
      backend: "medusa",
      ref: o.id,
      updatedAt: o.updated_at,
      returnOperationIds: (o.returns ?? [])
        .filter((r) => REQUESTED.has(r.status))
        .map((r) => r.metadata?.[RETURN_METADATA_KEY])
        .filter((id): id is string => typeof id === "string"),
    },
  };
}

/** No answer, or one that says nothing about our request (5xx, 429, 409): unknown. */
function unanswered(err: unknown): string | null {
  if (err instanceof FetchError) {
    const s = err.status ?? 0;
    return s === 0 || s >= 500 || s === 429 || s === 409 ? `http_${s}` : null;
  }
  if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError"))
    return "timeout";
  return "connection_error";
}

function refused(err: unknown): string {
  const s = err instanceof FetchError ? err.status : undefined;
  return s === 404 ? "order_not_found_at_store" : `http_${s ?? "error"}`;
}

/** A write's failure: unknown (looked up before anything is sent again) or a refusal for good. */
function failed(err: unknown): StoreWriteOutcome {
  const reason = unanswered(err);
  return reason
    ? { kind: "indeterminate", code: reason }
    : { kind: "definite", code: refused(err) };
}

/** A lookup that failed leaves the outcome unknown, even when refused: retried, then staff. */
function lookupFailed(err: unknown): StoreLookupOutcome {
  return { kind: "indeterminate", code: unanswered(err) ?? refused(err) };
}

export function medusaStore(config: MedusaConfig): Store {
  const sdk = new Medusa({ baseUrl: config.url, apiKey: config.apiKey });
  const call = <T>(
    path: string,
    init: {
      method?: "GET" | "POST" | "DELETE";
      query?: Record<string, unknown>;
      body?: unknown;
    } = {},
  ) =>
    sdk.client.fetch<T>(path, {
      method: init.method ?? "GET",
      query: init.query,
      body: init.body as Record<string, unknown> | undefined,
      signal: AbortSignal.timeout(config.timeoutMs),
    });

  async function read<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      const reason = unanswered(err);
      if (reason) throw new StoreUnreachableError(reason);
      throw err;
    }
  }

  async function customerOrders(customer: StoreCustomer): Promise<MedusaOrder[]> {
    if (!customer.storeCustomerId) return [];
    const id = customer.storeCustomerId;
    const body = await read(() =>
      call("/admin/orders", {
        query: { customer_id: id, fields: LIST_FIELDS, limit: 100, order: "-created_at" },
      }),
    );
    // The filter is the store's; the check is ours as well.
    return LIST.parse(body).orders.filter((o) => o.customer_id === id);
  }

  async function order(ref: string): Promise<MedusaOrder> {
    return ONE.parse(
      await call(`/admin/orders/${encodeURIComponent(ref)}`, { query: { fields: ORDER_FIELDS } }),
    ).order;
  }

  /**
   * Who wrote this operation's id into the order's metadata, and when: the first of the order's
   * `update_order` changes whose metadata write carried it. For a secret API key Medusa records
   * the key's id (`apk_…`), for a signed-in admin the user's id.
   */
  async function idWriter(ref: string, operationId: string) {
    const body = await call(`/admin/orders/${encodeURIComponent(ref)}/changes`, {
      query: { change_type: "update_order", fields: "created_by,created_at,actions.details" },
    });
    const writes = ORDER_CHANGES.parse(body)
      .order_changes.filter((c) =>
        (c.actions ?? []).some((a) => {
          const d = METADATA_DETAILS.safeParse(a.details);
          return d.success && d.data.new?.[OPERATION_METADATA_KEY] === operationId;
        }),
      )
      .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
    const first = writes[0];
    return first?.created_by ? { actor: first.created_by, at: Date.parse(first.created_at) } : null;
  }

  /** The order's refunds, with who made each and when. */
  async function orderRefunds(ref: string) {
    const body = await call(`/admin/orders/${encodeURIComponent(ref)}`, {
      query: {
        fields:
          "payment_collections.payments.id,payment_collections.payments.amount,payment_collections.payments.refunds.id,payment_collections.payments.refunds.amount,payment_collections.payments.refunds.created_by,payment_collections.payments.refunds.created_at",
      },
    });
    return (PAYMENTS.parse(body).order.payment_collections ?? []).flatMap((c) =>
      (c.payments ?? []).flatMap((p) => p.refunds ?? []),
    );
  }

  /**
   * Cancelled, and by whom. Our id in the metadata is not enough: a merchant may have cancelled
   * the order after our metadata write and before our cancel (our relay died, or its answer was
   * lost). Medusa's cancel refunds the captured payment as the actor who cancelled (the refunds'
   * `created_by`), and its record of our metadata write names our actor: the cancel is ours when
   * the refunds since our write were all made by that actor. Medusa refuses to write metadata on
   * a cancelled order, so a cancel of an order carrying our id came after our write (or raced it).
   * An order with no refund at all (no captured payment) has nothing to tell the two apart by,
   * and no money moved: it is credited to us. Refunds only from before our write, none since, is
   * a cancel that refunded nothing although money had moved: a cancel racing our write, or a
   * payment already refunded in full; not credited to us (docs/stores.md, "Whose cancel").
   * Requests are made only for a cancelled order with our id.
   */
  async function cancelState(o: MedusaOrder, operationId: string): Promise<StoreLookupOutcome> {
    if (o.status !== "canceled") return { kind: "absent" };
    const someoneElse = { kind: "definite", code: ALREADY_CANCELLED_AT_STORE } as const;
    if (o.metadata?.[OPERATION_METADATA_KEY] !== operationId) return someoneElse;
    const writer = await idWriter(o.id, operationId);
    if (!writer) return { kind: "indeterminate", code: CANCEL_AUTHOR_UNKNOWN };
    const all = await orderRefunds(o.id);
    const since = all.filter((r) => !r.created_at || Date.parse(r.created_at) >= writer.at);
    if (since.some((r) => r.created_by !== writer.actor)) return someoneElse;
    return since.length > 0 || all.length === 0
      ? { kind: "found", providerRef: o.id }
      : someoneElse;
  }

  /** The return this operation made at the store (its id is in the return's metadata). */
  async function ourReturn(orderRef: string, operationId: string): Promise<MedusaReturn | null> {
    const body = await call("/admin/returns", {
      query: { order_id: orderRef, fields: "id,status,metadata", limit: 100 },
    });
    return (
      RETURNS.parse(body).returns.find(
        (r) => r.metadata?.[RETURN_METADATA_KEY] === operationId && r.status !== "canceled",
      ) ?? null
    );
  }

  /** The refund this operation made at the store (its note carries our operation id). */
  async function ourRefund(orderRef: string, operationId: string) {
    const body = await call(`/admin/orders/${encodeURIComponent(orderRef)}`, {
      query: {
        fields:
          "payment_collections.payments.id,payment_collections.payments.amount,payment_collections.payments.captured_at,payment_collections.payments.refunds.id,payment_collections.payments.refunds.amount,payment_collections.payments.refunds.note",
      },
    });
    const payments = (PAYMENTS.parse(body).order.payment_collections ?? []).flatMap(
      (c) => c.payments ?? [],
    );
    const note = refundNote(operationId);
    const refund = payments.flatMap((p) => p.refunds ?? []).find((r) => r.note === note) ?? null;
    return { refund, payments };
  }

  async function orderByEmail(
    customer: StoreCustomer,
    orderId: string,
    email: string,
  ): Promise<StoreOrder | null> {
    // Medusa's search (`q`) matches the e-mail loosely; the exact check is ours. The 100 newest
    // orders of that e-mail: an older one is not found (docs/stores.md).
    const body = await read(() =>
      call("/admin/orders", {
        query: { q: email, fields: LIST_FIELDS, limit: 100, order: "-created_at" },
      }),
    );
    // Compared as accounts' e-mails are (trim, NFKC, lower case); `email` comes so.
    const sameEmail = (o: MedusaOrder) => o.email?.normalize("NFKC").trim().toLowerCase() === email;
    const found = LIST.parse(body).orders.find(
      (o) => String(o.display_id) === orderId && sameEmail(o),
    );
    if (!found) return null;
    // The one order again with its lines' variants (LINE_FIELDS), its e-mail checked again.
    const full = await read(() => order(found.id));
    return sameEmail(full) ? toStoreOrder(full, customer.userId) : null;
  }

  const post = (path: string, body: unknown = {}) => call(path, { method: "POST", body });

  /** The exchange this operation made at the store (its id is in the exchange's metadata). */
  async function ourExchange(
    orderRef: string,
    operationId: string,
  ): Promise<MedusaExchange | null> {
    const body = await call("/admin/exchanges", {
      query: {
        order_id: orderRef,
        fields: "id,canceled_at,metadata,return.status",
        limit: 100,
      },
    });
    return (
      EXCHANGES.parse(body).exchanges.find(
        (e) => e.metadata?.[EXCHANGE_METADATA_KEY] === operationId && !e.canceled_at,
      ) ?? null
    );
  }
  /**
   * The size change this operation made before the order shipped: a confirmed order edit leaves
   * the new variant's line on the order with our id in its metadata (an edit's own metadata is
   * not kept by Medusa), so that line is the change. Shaped as an exchange that is requested.
   */
  async function ourSwap(orderRef: string, operationId: string): Promise<MedusaExchange | null> {
    const { order: o } = z
      .object({
        order: z.object({
          items: z
            .array(
              z.object({ id: z.string(), metadata: z.record(z.string(), z.unknown()).nullish() }),
            )
            .nullish(),
        }),
      })
      .parse(
        await call(`/admin/orders/${encodeURIComponent(orderRef)}`, {
          query: { fields: "items.id,items.metadata" },
        }),
      );
    const line = (o.items ?? []).find((i) => i.metadata?.[EXCHANGE_METADATA_KEY] === operationId);
    return line
      ? { id: line.id, canceled_at: null, metadata: null, return: { status: "requested" } }
      : null;
  }

  /**
   * Before it ships: Medusa's order edit. The new variant is added (our id in its line's
   * metadata), the line's units taken off, then the edit is requested and confirmed. An edit an
   * earlier attempt left unconfirmed is dropped first (an order has one edit at a time, and ours
   * took no effect). Then a cheaper variant's difference is refunded with our note.
   */
  async function swap(op: StoreExchange): Promise<StoreWriteOutcome> {
    let mine = await ourSwap(op.storeOrderRef, op.operationId);
    if (!mine) {
      const current = await order(op.storeOrderRef);
      if (current.status === "canceled")
        return { kind: "definite", code: "order_cancelled_at_store" };
      const path = (tail = "") => `/admin/order-edits/${encodeURIComponent(current.id)}${tail}`;
      // An unconfirmed edit is dropped only when it is ours (our id in its added item's
      // details): a merchant's edit in progress is left alone, and Medusa then refuses ours.
      const edits = z
        .object({
          order_changes: z.array(
            z.object({
              status: z.string(),
              actions: z
                .array(
                  z.object({
                    details: z
                      .object({ metadata: z.record(z.string(), z.unknown()).nullish() })
                      .nullish(),
                  }),
                )
                .nullish(),
            }),
          ),
        })
        .parse(
          await call(`/admin/orders/${encodeURIComponent(current.id)}/changes`, {
            query: { change_type: "edit", fields: "status,actions.details" },
          }),
        ).order_changes;
      const halfDone = edits.some(
        (c) =>
          (c.status === "pending" || c.status === "requested") &&
          (c.actions ?? []).some(
            (a) => a.details?.metadata?.[EXCHANGE_METADATA_KEY] === op.operationId,
          ),
      );
      if (halfDone) await call(path(), { method: "DELETE" });
      // After dropping our own unconfirmed edit the order is as it was: compare now.
      const fresh = await order(op.storeOrderRef);
      if (fresh.updated_at !== op.expectedUpdatedAt)
        return { kind: "definite", code: ORDER_CHANGED_AT_STORE };
      const line = (fresh.items ?? []).find((i) => i.id === op.lineId);
      if (!line || line.quantity < op.quantity)
        return { kind: "definite", code: ORDER_CHANGED_AT_STORE };
      await post("/admin/order-edits", { order_id: fresh.id });
      await post(path("/items"), {
        items: [
          {
            variant_id: op.toVariantId,
            quantity: op.quantity,
            metadata: { [EXCHANGE_METADATA_KEY]: op.operationId },
          },
        ],
      });
      await post(path(`/items/item/${encodeURIComponent(op.lineId)}`), {
        quantity: line.quantity - op.quantity,
      });
      await post(path("/request"));
      await post(path("/confirm"));
      mine = await ourSwap(op.storeOrderRef, op.operationId);
      if (!mine) return { kind: "indeterminate", code: "swap_not_found_after_send" };
    }
    if (op.refundMinor > 0) {
      const refunded = await refundOnce(
        op.storeOrderRef,
        op.operationId,
        op.refundMinor,
        op.currency,
      );
      if (refunded.kind !== "succeeded") return refunded;
    }
    return { kind: "succeeded", providerRef: mine.id };
  }

  /** Requested: its return (the inbound items) is requested or received, not a draft. */
  const requested = (e: MedusaExchange) => REQUESTED.has(e.return?.status ?? "");

  /**
   * Refunds `amountMinor` of a captured payment with our note, unless a refund with that note is
   * there already; the refund's id, or an outcome that is not a success.
   */
  async function refundOnce(
    orderRef: string,
    operationId: string,
    amountMinor: number,
    currency: string,
  ): Promise<StoreWriteOutcome> {
    const { refund, payments } = await ourRefund(orderRef, operationId);
    if (refund) return { kind: "succeeded", providerRef: refund.id };
    const amount = majorUnits(amountMinor, currency);
    const payment = payments.find(
      (p) =>
        p.captured_at && p.amount - (p.refunds ?? []).reduce((a, r) => a + r.amount, 0) >= amount,
    );
    if (!payment) return { kind: "definite", code: "no_captured_payment_at_store" };
    await post(`/admin/payments/${encodeURIComponent(payment.id)}/refund`, {
      amount,
      note: refundNote(operationId),
    });
    const after = await ourRefund(orderRef, operationId);
    return after.refund
      ? { kind: "succeeded", providerRef: after.refund.id }
      : { kind: "indeterminate", code: "refund_not_found_after_send" };
  }
  const returnPath = (id: string, tail = "") => `/admin/returns/${encodeURIComponent(id)}${tail}`;

  return {
    backend: "medusa",
    async findOrder(customer, orderId) {
      const found = (await customerOrders(customer)).find((o) => String(o.display_id) === orderId);
      if (found) {
        // The one order again with its lines' variants (LINE_FIELDS), and the customer checked again.
        const full = await read(() => order(found.id));
        return full.customer_id === customer.storeCustomerId
          ? toStoreOrder(full, customer.userId)
          : null;
      }
      // A guest's verified order: read again with its e-mail, so a changed address closes it.
      const verified = customer.guestOrders?.find((g) => g.orderId === orderId);
      return verified ? orderByEmail(customer, orderId, verified.email) : null;
    },
    findOrderByEmail: orderByEmail,
    async listOrders(customer) {
      return (await customerOrders(customer)).map((o) => toStoreOrder(o, customer.userId));
    },

    async findCancel(op: StoreCancel): Promise<StoreLookupOutcome> {
      try {
        return await cancelState(await order(op.storeOrderRef), op.operationId);
      } catch (err) {
        return lookupFailed(err);
      }
    },

    async cancel(op: StoreCancel): Promise<StoreWriteOutcome> {
      try {
        const current = await order(op.storeOrderRef);
        const state = await cancelState(current, op.operationId);
        if (state.kind === "found") return { kind: "succeeded", providerRef: state.providerRef };
        if (state.kind === "definite" || state.kind === "indeterminate") return state;
        // Our id is already there only if an earlier attempt of ours wrote it (and its answer was
        // lost); otherwise the order must be as the customer saw it when they confirmed.
        if (current.metadata?.[OPERATION_METADATA_KEY] !== op.operationId) {
          if (current.updated_at !== op.expectedUpdatedAt)
            return { kind: "definite", code: ORDER_CHANGED_AT_STORE };
          await call(`/admin/orders/${encodeURIComponent(current.id)}`, {
            method: "POST",
            body: { metadata: { [OPERATION_METADATA_KEY]: op.operationId } },
          });
        }
        await call(`/admin/orders/${encodeURIComponent(current.id)}/cancel`, { method: "POST" });
        return { kind: "succeeded", providerRef: current.id };
      } catch (err) {
        return failed(err);
      }
    },

    async findReturn(op: StoreReturn): Promise<StoreLookupOutcome> {
      try {
        const mine = await ourReturn(op.storeOrderRef, op.operationId);
        return mine && REQUESTED.has(mine.status)
          ? { kind: "found", providerRef: mine.id }
          : { kind: "absent" };
      } catch (err) {
        return lookupFailed(err);
      }
    },

    /**
     * Medusa's return is four requests (begin, items, request); the return carries our id in its
     * metadata from the first, so a later attempt finds it. One of ours still a draft (an attempt
     * that stopped half-way) is dropped and begun again: nothing of it took effect at the store.
     */
    async requestReturn(op: StoreReturn): Promise<StoreWriteOutcome> {
      try {
        let mine = await ourReturn(op.storeOrderRef, op.operationId);
        if (mine && REQUESTED.has(mine.status)) return { kind: "succeeded", providerRef: mine.id };
        if (mine) {
          await call(returnPath(mine.id, "/request"), { method: "DELETE" });
          mine = null;
        }
        const current = await order(op.storeOrderRef);
        if (current.status === "canceled")
          return { kind: "definite", code: "order_cancelled_at_store" };
        if (current.updated_at !== op.expectedUpdatedAt)
          return { kind: "definite", code: ORDER_CHANGED_AT_STORE };
        const location = (current.fulfillments ?? []).find((f) => f.location_id)?.location_id;
        const created = z.object({ return: z.object({ id: z.string() }) }).parse(
          await post("/admin/returns", {
            order_id: current.id,
            // Medusa receives items of a stocked variant only into a location: the one the
            // order was fulfilled from (its custom items need none).
            ...(location ? { location_id: location } : {}),
            metadata: { [RETURN_METADATA_KEY]: op.operationId },
          }),
        ).return;
        // The lines and units the customer named (the plan's); a return stored before returns
        // named their lines is of every item of the order.
        const lines =
          op.items ?? (current.items ?? []).map((i) => ({ lineId: i.id, quantity: i.quantity }));
        await post(returnPath(created.id, "/request-items"), {
          items: lines.map((l) => ({
            id: l.lineId,
            quantity: l.quantity,
            metadata: { [RETURN_METADATA_KEY]: op.operationId },
          })),
        });
        await post(returnPath(created.id, "/request"));
        return { kind: "succeeded", providerRef: created.id };
      } catch (err) {
        return failed(err);
      }
    },

    async findReceipt(op: StoreReceipt): Promise<StoreLookupOutcome> {
      try {
        const mine = await ourReturn(op.storeOrderRef, op.operationId);
        if (!mine) return { kind: "definite", code: "return_not_found_at_store" };
        const { refund } = await ourRefund(op.storeOrderRef, op.operationId);
        return RECEIVED.has(mine.status) && refund
          ? { kind: "found", providerRef: refund.id }
          : { kind: "absent" };
      } catch (err) {
        return lookupFailed(err);
      }
    },

    /**
     * Receive the return (unless the store shows it received), then refund its amount of the
     * captured payment, unless a refund with our note is there already. A receive that an earlier
     * attempt began and did not confirm is dropped and begun again.
     */
    async receiveReturn(op: StoreReceipt): Promise<StoreWriteOutcome> {
      try {
        const mine = await ourReturn(op.storeOrderRef, op.operationId);
        if (!mine) return { kind: "definite", code: "return_not_found_at_store" };
        if (!RECEIVED.has(mine.status)) {
          const items = z
            .object({
              return: z.object({
                items: z.array(z.object({ item_id: z.string(), quantity: z.number() })).nullish(),
              }),
            })
            .parse(
              await call(returnPath(mine.id), {
                query: { fields: "items.item_id,items.quantity" },
              }),
            ).return.items;
          try {
            await call(returnPath(mine.id, "/receive"), { method: "DELETE" });
          } catch (err) {
            // No receive in progress: Medusa refuses to drop one, which is what we wanted.
            if (unanswered(err)) throw err;
          }
          await post(returnPath(mine.id, "/receive"));
          await post(returnPath(mine.id, "/receive-items"), {
            items: (items ?? []).map((i) => ({ id: i.item_id, quantity: i.quantity })),
          });
          await post(returnPath(mine.id, "/receive/confirm"));
        }
        // The return's amount (the returned lines' sum, from our record), never the payment's.
        return await refundOnce(op.storeOrderRef, op.operationId, op.amountMinor, op.currency);
      } catch (err) {
        return failed(err);
      }
    },

    async product(productId, currency) {
      const body = await read(() =>
        call(`/admin/products/${encodeURIComponent(productId)}`, {
          query: { fields: PRODUCT_FIELDS },
        }),
      );
      const p = MEDUSA_PRODUCT.parse(body).product;
      const code = currency.toLowerCase();
      const variants = p.variants
        .map((v) => {
          const price = (v.prices ?? []).find((x) => x.currency_code.toLowerCase() === code);
          return {
            id: v.id,
            productId: p.id,
            options: Object.fromEntries(
              (v.options ?? [])
                .filter((o) => o.option?.title && o.option.title !== DEFAULT_OPTION)
                .map((o) => [o.option!.title.toLowerCase(), o.value]),
            ),
            position: v.variant_rank ?? 0,
            // A variant without a price in the order's currency cannot be exchanged to.
            priceMinor: price ? minorUnits(price.amount, currency) : Number.MAX_SAFE_INTEGER,
            currency: currency.toUpperCase(),
            stock: available(v),
          };
        })
        .sort((a, b) => a.position - b.position);
      return { id: p.id, name: p.title, variants };
    },

    async findExchange(op: StoreExchange): Promise<StoreLookupOutcome> {
      try {
        const mine =
          op.kind === "swap"
            ? await ourSwap(op.storeOrderRef, op.operationId)
            : await ourExchange(op.storeOrderRef, op.operationId);
        if (!mine || !requested(mine)) return { kind: "absent" };
        if (op.refundMinor === 0) return { kind: "found", providerRef: mine.id };
        const { refund } = await ourRefund(op.storeOrderRef, op.operationId);
        return refund ? { kind: "found", providerRef: mine.id } : { kind: "absent" };
      } catch (err) {
        return lookupFailed(err);
      }
    },

    /**
     * Medusa's exchange is four requests (begin, inbound items, outbound items, request); it
     * carries our id in its metadata from the first, so a later attempt finds it, and one of
     * ours still a draft is dropped and begun again, as a return's. Then a cheaper variant's
     * difference is refunded with our note (once: a refund with it already there is not sent).
     */
    async exchangeItems(op: StoreExchange): Promise<StoreWriteOutcome> {
      try {
        if (op.kind === "swap") return await swap(op);
        let mine = await ourExchange(op.storeOrderRef, op.operationId);
        if (mine && !requested(mine)) {
          await call(`/admin/exchanges/${encodeURIComponent(mine.id)}/request`, {
            method: "DELETE",
          });
          mine = null;
        }
        if (!mine) {
          const current = await order(op.storeOrderRef);
          if (current.status === "canceled")
            return { kind: "definite", code: "order_cancelled_at_store" };
          if (current.updated_at !== op.expectedUpdatedAt)
            return { kind: "definite", code: ORDER_CHANGED_AT_STORE };
          const location = (current.fulfillments ?? []).find((f) => f.location_id)?.location_id;
          const created = z.object({ exchange: z.object({ id: z.string() }) }).parse(
            await post("/admin/exchanges", {
              order_id: current.id,
              metadata: { [EXCHANGE_METADATA_KEY]: op.operationId },
            }),
          ).exchange;
          const path = (tail: string) =>
            `/admin/exchanges/${encodeURIComponent(created.id)}${tail}`;
          await post(path("/inbound/items"), {
            ...(location ? { location_id: location } : {}),
            items: [
              {
                id: op.lineId,
                quantity: op.quantity,
                metadata: { [EXCHANGE_METADATA_KEY]: op.operationId },
              },
            ],
          });
          await post(path("/outbound/items"), {
            items: [
              {
                variant_id: op.toVariantId,
                quantity: op.quantity,
                metadata: { [EXCHANGE_METADATA_KEY]: op.operationId },
              },
            ],
          });
          await post(path("/request"));
          mine = { id: created.id, canceled_at: null, metadata: null, return: null };
        }
        if (op.refundMinor > 0) {
          const refunded = await refundOnce(
            op.storeOrderRef,
            op.operationId,
            op.refundMinor,
            op.currency,
          );
          if (refunded.kind !== "succeeded") return refunded;
        }
        return { kind: "succeeded", providerRef: mine.id };
      } catch (err) {
        return failed(err);
      }
    },

    async findAddressChange(op: StoreAddressChange): Promise<StoreLookupOutcome> {
      try {
        const current = await order(op.storeOrderRef);
        return current.metadata?.[ADDRESS_METADATA_KEY] === op.operationId
          ? { kind: "found", providerRef: current.id }
          : { kind: "absent" };
      } catch (err) {
        return lookupFailed(err);
      }
    },

    /**
     * One request sets the address and our id in the order's metadata together, so the lookup
     * that finds our id has found the address change too.
     */
    async changeAddress(op: StoreAddressChange): Promise<StoreWriteOutcome> {
      try {
        const current = await order(op.storeOrderRef);
        if (current.metadata?.[ADDRESS_METADATA_KEY] === op.operationId)
          return { kind: "succeeded", providerRef: current.id };
        if (current.status === "canceled")
          return { kind: "definite", code: "order_cancelled_at_store" };
        if (current.updated_at !== op.expectedUpdatedAt)
          return { kind: "definite", code: ORDER_CHANGED_AT_STORE };
        await post(`/admin/orders/${encodeURIComponent(current.id)}`, {
          shipping_address: medusaAddress(op.address),
          metadata: { ...current.metadata, [ADDRESS_METADATA_KEY]: op.operationId },
        });
        return { kind: "succeeded", providerRef: current.id };
      } catch (err) {
        return failed(err);
      }
    },
  };
}
