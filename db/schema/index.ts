/**
 * The tables of the dialect this process runs on (db/dialect.ts), decided once when this module
 * is first imported: a process talks to one database for its whole life. They are typed as the
 * SQLite tables; the PostgreSQL ones have the same row types (tests/unit/schema-dialects.test.ts),
 * and db/queries only use the query-builder surface both dialects share (see db/index.ts).
 */
import { dialectFromEnv } from "../dialect";
import * as pg from "./pg";
import * as sqlite from "./sqlite";

export const schemaDialect = dialectFromEnv();
const s = (schemaDialect === "postgres" ? pg : sqlite) as unknown as typeof sqlite;

export const {
  user,
  session,
  account,
  verification,
  rateLimit,
  rateWindows,
  embedTokenUses,
  guestVerifications,
  orders,
  products,
  productVariants,
  orderItems,
  returnRequests,
  returnRequestLines,
  itemExchanges,
  orderCancellations,
  storeOperations,
  deliveryAddressChanges,
  chats,
  messages,
  pendingActions,
  auditEvents,
  modelCalls,
  candidateComparisons,
  candidateRollouts,
  alerts,
  metricsDaily,
  auditStatusCounts,
  effects,
  refundsLedger,
  handoffs,
  effectCanaries,
  turnProfiles,
  probeSets,
} = s;

/** Every table, for drizzle's relational layer and better-auth's adapter. */
export const tables = {
  user,
  session,
  account,
  verification,
  rateLimit,
  rateWindows,
  embedTokenUses,
  guestVerifications,
  orders,
  products,
  productVariants,
  orderItems,
  returnRequests,
  returnRequestLines,
  itemExchanges,
  orderCancellations,
  storeOperations,
  deliveryAddressChanges,
  chats,
  messages,
  pendingActions,
  handoffs,
  auditEvents,
  modelCalls,
  candidateComparisons,
  metricsDaily,
  auditStatusCounts,
  effects,
  refundsLedger,
  effectCanaries,
  turnProfiles,
  probeSets,
};

export * from "../constants";
