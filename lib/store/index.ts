/**
 * The store of this process (STORE_BACKEND): the built-in one, or a Medusa store's Admin API.
 * Built once per configuration (tests switch the environment between files).
 */
import "server-only";
import {
  guestOrderMatches,
  openGuestVerifications,
  verifiedGuestOrders,
} from "@/db/queries/guests";
import { storeReturnsByOperationIds } from "@/db/queries/store-operations";
import { getStoreCustomerId } from "@/db/queries/users";
import { env } from "@/lib/env";
import { builtinStore } from "./builtin";
import { medusaStore } from "./medusa";
import { type Store, type StoreCustomer, type StoreOrder, StoreUnreachableError } from "./types";

export type { Store, StoreCustomer, StoreOrder } from "./types";
export { StoreUnreachableError } from "./types";

let cached: { key: string; store: Store } | undefined;

export function store(): Store {
  const e = env();
  if (e.STORE_BACKEND === "builtin" || !e.MEDUSA_URL || !e.MEDUSA_API_KEY) return builtinStore;
  const key = `${e.MEDUSA_URL}|${e.MEDUSA_API_KEY}|${e.MEDUSA_TIMEOUT_MS}`;
  if (cached?.key !== key) {
    cached = {
      key,
      store: medusaStore({
        url: e.MEDUSA_URL,
        apiKey: e.MEDUSA_API_KEY,
        timeoutMs: e.MEDUSA_TIMEOUT_MS,
      }),
    };
  }
  return cached.store;
}

/**
 * The account and the store customer it is linked to (only an external store needs the link).
 * An account without a link may be a guest: its open verifications are the orders it may read,
 * each checked at the store against the e-mail it was verified with.
 */
export async function storeCustomer(userId: string): Promise<StoreCustomer> {
  if (store().backend === "builtin") return { userId, storeCustomerId: null };
  const storeCustomerId = await getStoreCustomerId({ userId });
  if (storeCustomerId) return { userId, storeCustomerId };
  const guestOrders = await openGuestVerifications({ userId, now: new Date() });
  return { userId, storeCustomerId: null, guestOrders };
}

/**
 * The orders a guest verified and may act on now. The built-in store answers with its own orders'
 * e-mails (a changed one drops out here); an external store's are checked on every read there.
 */
export async function openGuestOrders(userId: string): Promise<{ orderId: string }[]> {
  const now = new Date();
  return store().backend === "builtin"
    ? verifiedGuestOrders({ userId, now })
    : openGuestVerifications({ userId, now });
}

/**
 * Whether the order was placed with this (normalised) e-mail: the built-in store's guest orders
 * by their own column, an external store's orders (a guest's or a customer's) at the store.
 */
export async function orderPlacedWith(orderId: string, email: string): Promise<boolean> {
  const s = store();
  if (s.backend === "builtin" || !s.findOrderByEmail) return guestOrderMatches({ orderId, email });
  return !!(await s.findOrderByEmail({ userId: "", storeCustomerId: null }, orderId, email));
}

/**
 * Each store order's return requested through us, as the orders page and get_order_status show a
 * built-in order's: only when the store itself has that return now (its operation id in the
 * return's metadata, requested or received, read with the order), labelled from our record (its
 * RR- request id, reason and refund). Our record alone is not enough: it exists from the confirm
 * on, before the relay has made the return at the store, and stays when the store refused it.
 */
export async function withStoreReturns<T extends StoreOrder | null>(
  userId: string,
  orders: T[],
): Promise<T[]> {
  const operationIds = orders.flatMap((o) => o?.store?.returnOperationIds ?? []);
  if (operationIds.length === 0) return orders;
  const rows = await storeReturnsByOperationIds({ userId, operationIds });
  return orders.map((o) => {
    if (!o?.store) return o;
    const row = rows.find(
      (r) =>
        r.backend === o.store?.backend &&
        r.storeOrderRef === o.store.ref &&
        o.store.returnOperationIds.includes(r.operationId),
    );
    if (!row) return o;
    return {
      ...o,
      returnRequest: {
        id: row.id,
        orderId: row.orderId,
        userId: row.userId,
        // A return's row holds a return reason (create_return_request's commit writes it).
        reason: row.reason as NonNullable<StoreOrder["returnRequest"]>["reason"],
        comment: row.comment,
        refundAmountMinor: row.refundAmountMinor,
        refundCurrency: row.refundCurrency,
        refundDestination: row.refundDestination,
        actionId: row.actionId,
        operationId: row.operationId,
        createdAt: row.createdAt,
        receivedAt: row.receivedAt,
        receivedBy: row.receivedBy,
      },
    };
  });
}

/**
 * The customer's orders for the orders page, newest first, from the store at the time of asking;
 * null when the store does not answer (the page says so rather than showing none).
 */
export async function listCustomerOrders(userId: string): Promise<StoreOrder[] | null> {
  try {
    return await withStoreReturns(userId, await store().listOrders(await storeCustomer(userId)));
  } catch (err) {
    if (err instanceof StoreUnreachableError) return null;
    throw err;
  }
}
