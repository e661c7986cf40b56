/**
 * The customer's order at the store (lib/store), for every tool: a store that does not answer
 * is `store_unreachable` to the customer ("I can't reach the store right now"), never an invented
 * status and never a 500.
 */
import { type StoreOrder, StoreUnreachableError, store, storeCustomer } from "@/lib/store";
import { ToolBusinessError } from "./types";

export async function findCustomerOrder(
  orderId: string,
  userId: string,
): Promise<StoreOrder | null> {
  try {
    return await store().findOrder(await storeCustomer(userId), orderId);
  } catch (err) {
    if (err instanceof StoreUnreachableError) {
      throw new ToolBusinessError(
        "store_unreachable",
        `The store cannot be reached right now (${err.reason}), so order ${orderId} could not be checked. Tell the customer to try again in a few minutes; never guess its status.`,
      );
    }
    throw err;
  }
}

/**
 * A write the connected store does not carry out yet (docs/stores.md): refused by the policy,
 * before any card, instead of acting on our own tables, which do not hold the store's orders.
 */
export function refuseUnlessBuiltinStore(what: string): void {
  if (store().backend === "builtin") return;
  throw new ToolBusinessError(
    "not_supported_by_store",
    `${what} is not available for orders of this store yet. Tell the customer a member of staff will help, and offer a handoff.`,
  );
}
