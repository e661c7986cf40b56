/**
 * A write tool's rows for the offline model (lib/ai/models/offline): what customers say to ask for
 * it, to ask about it and to say not to do it, how the rest of its arguments are read from a
 * message, and what the model answers. The model runs the same rules for every tool that has
 * rows (decide.ts: a question or a "don't" proposes nothing, a request proposes once its order and
 * arguments are known, a missing one gets one question, "then do it" reaches back one message).
 *
 * Pure data and functions of text: nothing here imports the model (lib/ai imports lib/tools,
 * never the other way round). Patterns are sources for the model's `re()`: case-insensitive,
 * Unicode, with `\b` a real word boundary in any script, run on normalised text (lower case,
 * ё -> е, punctuation stripped, typos corrected, transliterated Russian turned to Cyrillic).
 */
import type { Locale as Lang } from "@/db/constants";

export type Phrases = Record<Lang, string[]>;

/** One customer message as the rows see it. */
export type OfflineMessage = {
  /** What the customer typed. */
  text: string;
  /** Normalised (see above). */
  canon: string;
  lang: Lang;
};

/** An order as the model read it from get_order_status (loosely: only what a reply needs). */
export type OfflineOrder = {
  orderId: string;
  status: string;
  deliveryAddress?: Record<string, unknown> | null;
};

/**
 * The arguments beyond `orderId` a message carries, or the one thing still missing, or a refusal
 * the tool's rows can already give from the words alone (a country we don't ship to): nothing is
 * proposed and the customer hears why.
 */
export type OfflineArgs =
  | { args: Record<string, unknown>; missing?: undefined; refusal?: undefined }
  | { missing: string; args?: undefined; refusal?: undefined }
  | { refusal: string; args?: undefined; missing?: undefined };

export type OfflineWriteReplies = {
  /** A request without an order number. */
  askOrder: string;
  /** A request naming several orders: one at a time. */
  askWhich: (ids: string[]) => string;
  /** A question about the tool without an order number. */
  askOrderForQuestion: string;
  /** The argument named by `args()`'s `missing`, for this order. */
  askMissing: (slot: string, orderId: string) => string;
  /** "Don't do it": nothing happens. */
  notDoing: string;
  /** Added after the order's status when the customer asked whether this is still possible. */
  possible: (order: OfflineOrder) => string;
  /** The card is shown: check and confirm. */
  proposed: (orderId: string | null) => string;
  /** The result the tool returns when it was already done (createdNow: false), or null if unreadable. */
  existing: (result: unknown) => string | null;
  /** This tool's business error codes; `order` is "order 3004" / "заказ 3004" (or "that order"). */
  errors: Record<string, (order: string, Order: string) => string>;
};

/**
 * What a read tool looks up for the offline model (its `offline.reads`): one order's facts (input
 * `{ orderId }`) or the return policy (no input). The model asks for a lookup by what it reads,
 * never by a tool's name.
 */
export type OfflineRead = "order" | "policy";

/** What the customer says is wrong with an item, read by the model from their words. */
export type OfflineComplaint = {
  reason: "damaged" | "defective" | "other";
  comment: string | null;
};

/** A thread's own questions and offer (see OfflineThread). */
export type OfflineThreadReplies = {
  /** A request (or a complaint) without an order number; `reason` when one was given. */
  askOrder: (reason: OfflineComplaint["reason"] | null) => string;
  /** The order is known, what is wrong is not. */
  askComplaint: (orderId: string) => string;
  /**
   * The items named are not in the order an earlier message named (its lookup lists the others),
   * and no order looked up holds them: which order are they from?
   */
  askOrderOfItems: (notIn: string) => string;
  /** Neither the order nor what is wrong. */
  askOrderAndComplaint: string;
  /** A complaint without a request: offer the action, never take it. */
  offer: (orderId: string | null, reason: OfflineComplaint["reason"]) => string;
  /** After answering a question its lookups answered: how to actually ask for it. */
  howToAsk: (orderId: string | null) => string;
};

/**
 * A tool whose request is a conversation rather than one message (the return): an order and a
 * complaint gathered over several messages in any order, a complaint answered with an offer and a
 * "yes" to it taken as the request, a question answered with extra lookups (the policy), and an
 * unfinished request kept in the conversation summary when older messages are folded away. Its
 * rows run by the thread rules (lib/ai/models/offline/decide.ts) instead of the three rules of a
 * one-message request.
 */
export type OfflineThread = {
  /**
   * The tool's arguments beyond the order, from the complaint the thread gathered and from its
   * messages (newest first: which items, how many).
   */
  args: (complaint: OfflineComplaint, said: readonly OfflineMessage[]) => Record<string, unknown>;
  /** What a question about it is answered with, besides the orders it names (read tools by kind). */
  lookups: OfflineRead[];
  replies: Record<Lang, OfflineThreadReplies>;
};

type OfflineRowsBase = {
  lexicon: {
    /**
     * Words of its requests the typo corrector may restore ("adress" -> "address"): five letters
     * or more, as in lib/ai/models/offline/lexicon-typos.ts.
     */
    stems?: string[];
    /** An explicit request ("cancel 3004", "call off my order"). */
    request: Phrases;
    /** A question about it ("can I still cancel?"): asking is not requesting. */
    question: Phrases;
    /** Saying not to ("don't cancel it"). */
    negation: Phrases;
  };
  /**
   * Where in the message the order number is (default: the whole text). A tool whose arguments
   * hold digits of their own (a postal code) names the part before them.
   */
  orderPart?: (m: OfflineMessage) => string;
  replies: Record<Lang, OfflineWriteReplies>;
};

export type OfflineWriteRows = OfflineRowsBase &
  (
    | {
        /** The other arguments, from this message (or, answering our question, the request before it). */
        args: (m: OfflineMessage, request: OfflineMessage | null) => OfflineArgs;
        thread?: undefined;
      }
    | { thread: OfflineThread; args?: undefined }
  );
