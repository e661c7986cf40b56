/** The built-in store: our own orders tables and demo seed, exactly as before stores existed. */
import "server-only";
import { getOrderForUser, listOrdersForUser } from "@/db/queries/orders";
import type { Store } from "./types";

export const builtinStore: Store = {
  backend: "builtin",
  async findOrder(customer, orderId) {
    const order = await getOrderForUser({ id: orderId, userId: customer.userId });
    return order ? { ...order, store: null } : null;
  },
  async listOrders(customer) {
    const orders = await listOrdersForUser({ userId: customer.userId });
    return orders.map((o) => ({ ...o, store: null }));
  },
};
