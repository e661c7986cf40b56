/**
 * Value sets shared by the schema and the browser. Plain constants, no drizzle: client code
 * can import them without pulling the database layer into its bundle.
 */
export const ACTION_STATUSES = [
  "pending",
  "executing",
  "executed",
  "cancelled",
  "expired",
  "superseded",
  "stale",
  "failed",
] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];
