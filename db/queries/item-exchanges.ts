/**
 * exchange_items' table (item_exchanges: one row per exchange, UNIQUE operation_id: one
 * exchange per action) through the shared write-once helpers, and its compare-and-set on the
 * order. The table is in db/schema and the migrations; the stock it reserves is the catalogue's
 * (./catalogue.ts).
 */
import "server-only";
import { itemExchanges } from "../schema";
import { compareAndSetOrder, findByOperationId, findForOrder, insertOnce } from "./write-once";

export type ItemExchangeRow = typeof itemExchanges.$inferSelect;
export type NewItemExchange = typeof itemExchanges.$inferInsert;

export const getExchangeByOperationId = ({ operationId }: { operationId: string }) =>
  findByOperationId(itemExchanges, operationId);

/** The new exchange, or null when this action's exchange is already there. */
export const insertExchangeIfAbsent = (row: NewItemExchange) =>
  insertOnce(itemExchanges, itemExchanges.operationId, row);

/** Every exchange of an order, only the user's when given. */
export const listExchangesForOrder = (orderId: string, userId?: string) =>
  findForOrder(itemExchanges, { orderId, userId });

/**
 * Compare-and-set on the order: only its version moves, and only while it is still in the
 * status the plan saw (a swap needs it still processing, an exchange still delivered).
 */
export const bumpOrderForExchange = (args: {
  orderId: string;
  userId: string;
  expectedVersion: number;
  status: "processing" | "delivered";
  now: Date;
}) => compareAndSetOrder(args);
