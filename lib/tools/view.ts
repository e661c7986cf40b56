/**
 * What a write tool's describe() returns: everything the confirm card, the app's chat messages and
 * the outcome note say about one action, already in the chat's language. The card renders it with
 * no knowledge of the tool. Client-safe (zod only): the browser parses the same schema.
 */
import { z } from "zod";

/** One fact on the card. `key` names it for tests and styling (data-testid="confirm-<key>"). */
export const ActionRowSchema = z.object({
  key: z.string().regex(/^[a-z][a-z0-9-]*$/),
  label: z.string(),
  /** A list renders as one line per entry (order items). */
  value: z.union([z.string(), z.array(z.string())]),
});
export type ActionRow = z.infer<typeof ActionRowSchema>;

export const ActionViewSchema = z.object({
  title: z.string(),
  /** One plain sentence: what pressing Confirm will do. */
  summary: z.string(),
  rows: z.array(ActionRowSchema),
  /** The money the customer should notice (the refund), shown highlighted. */
  amount: z
    .object({
      key: z.string().regex(/^[a-z][a-z0-9-]*$/),
      label: z.string(),
      value: z.string(),
      detail: z.string().nullable(),
    })
    .nullable(),
  warning: z.string().nullable(),
  /** After a successful commit: what was done (or that it already existed). */
  outcome: z.object({ tone: z.enum(["success", "neutral"]), text: z.string() }).nullable(),
});
export type ActionView = z.infer<typeof ActionViewSchema>;

/** describe(): the card's view plus the two sentences the app (not the model) writes into the chat. */
export type ActionDescription = Omit<ActionView, "outcome"> & {
  /** The chat message that accompanies the card. */
  confirmation: string;
  /** Given a result: the card's note on what was done. */
  outcome: ActionView["outcome"];
  /** The app's chat message after each decision ("existed": executed with createdNow false). */
  notes: Record<NoteKind, string>;
};

export const NOTE_KINDS = [
  "executed",
  "existed",
  "cancelled",
  "expired",
  "stale",
  "superseded",
  "failed",
] as const;
export type NoteKind = (typeof NOTE_KINDS)[number];
