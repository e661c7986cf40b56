/**
 * What a write tool's describe() returns: everything the confirm card, the app's chat messages and
 * the outcome note say about one action, already in the chat's language. The card renders it with
 * no knowledge of the tool. Client-safe (zod only): the browser parses the same schema.
 */
import { z } from "zod";
import type { EffectStatus, NoteKind } from "@/db/constants";
import type { EffectKind } from "@/lib/effects/kinds";

/** One fact on the card. `key` names it for tests and styling (data-testid="confirm-<key>"). */
export const ActionRowSchema = z.object({
  key: z.string().regex(/^[a-z][a-z0-9-]*$/),
  label: z.string(),
  /** A list renders as one line per entry (order items). */
  value: z.union([z.string(), z.array(z.string())]),
});
export type ActionRow = z.infer<typeof ActionRowSchema>;

export const ActionViewSchema = z.object({
  /** The open card's heading: it asks the customer to confirm. */
  title: z.string(),
  /** One plain sentence: what pressing Confirm will do. */
  summary: z.string(),
  /**
   * What the action is about, asking nothing ("Cancellation of order 3004"): the card's heading
   * once it is decided, and the heading staff see.
   */
  subject: z.string(),
  /** For staff deciding an approval: what approving it executes, in their words. */
  approval: z.string(),
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
  /**
   * After a successful commit: what was done (or that it already existed), including how far its
   * effects outside our database (a refund) have got. `settled` is false while one of them is
   * still under way: the text will change, and clients poll GET /api/actions/{id} until it is
   * true.
   */
  outcome: z
    .object({
      tone: z.enum(["success", "neutral", "warning"]),
      text: z.string(),
      settled: z.boolean(),
    })
    .nullable(),
});
export type ActionView = z.infer<typeof ActionViewSchema>;

/**
 * The tool's note on an executed action; the app adds whether its effects have settled.
 * `awaiting`: the note will still change without the customer, though no effect exists yet (a
 * return waits for its parcel; staff marking it received creates the refund), so clients keep
 * following it.
 */
export type OutcomeNote = Omit<NonNullable<ActionView["outcome"]>, "settled"> & {
  awaiting?: boolean;
};

/**
 * An effect of the action as describe() sees it: its kind and where the relay has got
 * (docs/effects.md), and why it ended as it did (the store refused a write because the order
 * changed there: the card says so). Only the action's own effects; none before it executed.
 */
export type EffectState = {
  kind: EffectKind;
  status: EffectStatus;
  lastErrorCode?: string | null;
};

/**
 * Where an effect stands for the customer: `processing` until the relay settles it (pending
 * also between retries, in_flight while a relay calls the provider), then its final status.
 */
export type EffectPhase = "processing" | Exclude<EffectStatus, "pending" | "in_flight">;

export function effectPhase(status: EffectStatus): EffectPhase {
  return status === "pending" || status === "in_flight" ? "processing" : status;
}

/** True when no effect can still change by itself (the relay is done with every one). */
export function effectsSettled(effects: readonly { status: EffectStatus }[]): boolean {
  return effects.every((e) => effectPhase(e.status) !== "processing");
}

/** describe(): the card's view plus the two sentences the app (not the model) writes into the chat. */
export type ActionDescription = Omit<ActionView, "outcome"> & {
  /** The chat message that accompanies the card. */
  confirmation: string;
  /** Given a result: the card's note on what was done (and its effects' progress). */
  outcome: OutcomeNote | null;
  /** The app's chat message after each decision (the kinds: db/constants.ts NOTE_KINDS). */
  notes: Record<NoteKind, string>;
};
