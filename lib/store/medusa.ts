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
 *   the order's metadata across the cancel, so "cancelled and carries our id" is what the lookup
 *   after a lost answer matches on; the order's version and updated_at alone cannot tell whose
 *   cancel it was.
 */
import "server-only";
import Medusa, { FetchError } from "@medusajs/js-sdk";
import { z } from "zod";
import type { OrderStatus } from "@/db/schema";
import {
  type Store,
  type StoreCancel,
  type StoreCustomer,
  type StoreLookupOutcome,
  type StoreOrder,
  StoreUnreachableError,
  type StoreWriteOutcome,
} from "./types";

/** Where our operation id lives in the Medusa order's metadata. */
export const OPERATION_METADATA_KEY = "returns_desk_cancel_operation_id";

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
  "fulfillment_status",
  "items.title",
  "items.quantity",
  "items.unit_price",
  "*shipping_address",
  "fulfillments.shipped_at",
  "fulfillments.delivered_at",
].join(",");

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
  fulfillment_status: z.string().nullish(),
  items: z
    .array(z.object({ title: z.string(), quantity: z.number(), unit_price: z.number() }))
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
  fulfillments: z.array(z.object({ shipped_at: when, delivered_at: when })).nullish(),
});
type MedusaOrder = z.output<typeof MEDUSA_ORDER>;

const LIST = z.object({ orders: z.array(MEDUSA_ORDER) });
const ONE = z.object({ order: MEDUSA_ORDER });

export type MedusaConfig = { url: string; apiKey: string; timeoutMs: number };

/** Medusa's amounts are in the currency's major unit; ours are minor units. */
function minorUnits(amount: number, currency: string): number {
  const digits = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions()
    .maximumFractionDigits;
  return Math.round(amount * 10 ** (digits ?? 2));
}

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
    totalMinor: minorUnits(o.total, currency),
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
    items: (o.items ?? []).map((i) => ({
      name: i.title,
      quantity: i.quantity,
      unitPriceMinor: minorUnits(i.unit_price, currency),
    })),
    returnRequest: null,
    store: { backend: "medusa", ref: o.id, updatedAt: o.updated_at },
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

export function medusaStore(config: MedusaConfig): Store {
  const sdk = new Medusa({ baseUrl: config.url, apiKey: config.apiKey });
  const call = <T>(
    path: string,
    init: { method?: "GET" | "POST"; query?: Record<string, unknown>; body?: unknown } = {},
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
        query: { customer_id: id, fields: FIELDS, limit: 100, order: "-created_at" },
      }),
    );
    // The filter is the store's; the check is ours as well.
    return LIST.parse(body).orders.filter((o) => o.customer_id === id);
  }

  async function order(ref: string): Promise<MedusaOrder> {
    return ONE.parse(
      await call(`/admin/orders/${encodeURIComponent(ref)}`, { query: { fields: FIELDS } }),
    ).order;
  }

  /** Cancelled, and by whom: ours when the metadata carries this operation's id. */
  function cancelState(o: MedusaOrder, operationId: string): StoreLookupOutcome {
    const ours = o.metadata?.[OPERATION_METADATA_KEY] === operationId;
    if (o.status === "canceled") {
      return ours
        ? { kind: "found", providerRef: o.id }
        : { kind: "definite", code: "already_cancelled_at_store" };
    }
    return { kind: "absent" };
  }

  return {
    backend: "medusa",
    async findOrder(customer, orderId) {
      const found = (await customerOrders(customer)).find((o) => String(o.display_id) === orderId);
      return found ? toStoreOrder(found, customer.userId) : null;
    },
    async listOrders(customer) {
      return (await customerOrders(customer)).map((o) => toStoreOrder(o, customer.userId));
    },

    async findCancel(op: StoreCancel): Promise<StoreLookupOutcome> {
      try {
        return cancelState(await order(op.storeOrderRef), op.operationId);
      } catch (err) {
        // A lookup refused for good still leaves the outcome unknown: retried, then staff.
        return { kind: "indeterminate", code: unanswered(err) ?? refused(err) };
      }
    },

    async cancel(op: StoreCancel): Promise<StoreWriteOutcome> {
      try {
        const current = await order(op.storeOrderRef);
        const state = cancelState(current, op.operationId);
        if (state.kind === "found") return { kind: "succeeded", providerRef: state.providerRef };
        if (state.kind === "definite") return state;
        // Our id is already there only if an earlier attempt of ours wrote it (and its answer was
        // lost); otherwise the order must be as the customer saw it when they confirmed.
        if (current.metadata?.[OPERATION_METADATA_KEY] !== op.operationId) {
          if (current.updated_at !== op.expectedUpdatedAt)
            return { kind: "definite", code: "order_changed_at_store" };
          await call(`/admin/orders/${encodeURIComponent(current.id)}`, {
            method: "POST",
            body: { metadata: { [OPERATION_METADATA_KEY]: op.operationId } },
          });
        }
        await call(`/admin/orders/${encodeURIComponent(current.id)}/cancel`, { method: "POST" });
        return { kind: "succeeded", providerRef: current.id };
      } catch (err) {
        const reason = unanswered(err);
        return reason
          ? { kind: "indeterminate", code: reason }
          : { kind: "definite", code: refused(err) };
      }
    },
  };
}
