/**
 * The customer's order at the store (lib/store), for every tool: a store that does not answer
 * is `store_unreachable` to the customer ("I can't reach the store right now"), never an invented
 * status and never a 500.
 */
import {
  type StoreOrder,
  StoreUnreachableError,
  store,
  storeCustomer,
  withStoreReturns,
} from "@/lib/store";
import { ToolBusinessError, type ToolContext } from "./types";

/** The order as the store answers; the context's onOrderRead hears the answer. */
export async function findCustomerOrder(
  orderId: string,
  ctx: Pick<ToolContext, "userId" | "onOrderRead">,
): Promise<StoreOrder | null> {
  try {
    const [order = null] = await withStoreReturns(ctx.userId, [
      await store().findOrder(await storeCustomer(ctx.userId), orderId),
    ]);
    ctx.onOrderRead?.(orderId, order);
    return order;
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
