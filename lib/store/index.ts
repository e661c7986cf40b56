/**
 * The store of this process (STORE_BACKEND): the built-in one, or a Medusa store's Admin API.
 * Built once per configuration (tests switch the environment between files).
 */
import "server-only";
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

/** The account and the store customer it is linked to (only an external store needs the link). */
export async function storeCustomer(userId: string): Promise<StoreCustomer> {
  if (store().backend === "builtin") return { userId, storeCustomerId: null };
  return { userId, storeCustomerId: await getStoreCustomerId({ userId }) };
}

/**
 * The customer's orders for the orders page, newest first, from the store at the time of asking;
 * null when the store does not answer (the page says so rather than showing none).
 */
export async function listCustomerOrders(userId: string): Promise<StoreOrder[] | null> {
  try {
    return await store().listOrders(await storeCustomer(userId));
  } catch (err) {
    if (err instanceof StoreUnreachableError) return null;
    throw err;
  }
}
