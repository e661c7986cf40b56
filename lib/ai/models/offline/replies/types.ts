/**
 * Everything the offline model can say, one table per language with the same keys. Adding a
 * language = one more file implementing Replies; the compiler lists anything left out.
 */
import type { OrderFacts, PolicyFacts } from "../facts";

export type Replies = {
  greeting: string;
  thanks: string;
  farewell: string;
  /** `can`: what the assistant can do, from the registry (help.ts). */
  capabilities: (can: string) => string;
  fallback: (can: string) => string;
  /** The customer said no to an offer. */
  denied: string;
  /** "Yes" with nothing to agree to. */
  affirmedNothing: string;

  forbidden: string;
  unsupported: (can: string) => string;
  /** The turn gave the model no tools (or forbade them), so it cannot look anything up. */
  noTools: string;
  /** A visitor who is not signed in asked for something only their account can answer. */
  signInAtStore: string;
  /** To a visitor who asked about returns: where a return can be asked for. */
  visitorHowToReturn: string;

  askOrderForStatus: string;
  malformedNumber: (digits: string) => string;

  /** "order 3004" / "заказ 3004", and without a number, for a write tool's own error texts. */
  orderNamed: (orderId: string) => string;
  thatOrder: string;

  order: (o: OrderFacts) => string;
  /** Added after the order sentence when the customer asked about returning that order. */
  orderReturnability: (o: OrderFacts, windowDays: number | null) => string;
  policy: (p: PolicyFacts) => string;
  /** A card of a tool without replies of its own (the tools' rows phrase their own). */
  proposed: (orderId: string | null) => string;
  /** The codes any tool may answer with; a tool's own codes are in its rows. */
  businessError: (code: string, orderId: string | null) => string;
  toolFailed: string;
};
