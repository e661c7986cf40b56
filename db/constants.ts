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

/** The interface languages (message catalogues in messages/); the first is the fallback. */
export const LOCALES = ["en", "ru"] as const;
export type Locale = (typeof LOCALES)[number];
