/**
 * Phrasing the answer once this turn's tools have returned. Only facts read from the results go
 * into the sentence; text inside a result (a delivery note, an error message) is never obeyed and
 * never repeated, and after results the model always answers in text: it cannot be talked into
 * another tool call by what a tool returned.
 */
import { z } from "zod";
import { has } from "./classify";
import type { Conversation } from "./conversation";
import type { Decision } from "./decide";
import { type Fact, readFact } from "./facts";
import { REPLIES } from "./replies";

const ORDER_INPUT = z.object({ orderId: z.string() });

export function answerFromResults(c: Conversation): Decision {
  const r = REPLIES[c.lang];
  const facts = c.outcomes.map((o) => {
    const input = ORDER_INPUT.safeParse(o.input);
    return {
      fact: readFact(o.toolName, o.output),
      orderId: input.success ? input.data.orderId : null,
    };
  });
  const policy = facts.find((f) => f.fact.kind === "policy")?.fact;
  const windowDays = policy?.kind === "policy" ? policy.policy.windowDays : null;
  const aboutOrders = facts.some((f) => f.fact.kind === "order");
  // The customer asked whether an order can still be cancelled: say so for each order named.
  const aboutCancelling = c.last !== null && has(c.last, "cancel_request", "cancel_question");

  const sentences: string[] = [];
  const add = (s: string) => {
    if (s && !sentences.includes(s)) sentences.push(s);
  };
  const phrase: {
    [K in Fact["kind"]]: (f: Extract<Fact, { kind: K }>, id: string | null) => void;
  } = {
    order: (f) => {
      add(r.order(f.order));
      if (policy) add(r.orderReturnability(f.order, windowDays));
      if (aboutCancelling) add(r.cancellability(f.order));
    },
    // With an order in the answer, its own window says more than the general rules.
    policy: (f) => {
      if (!aboutOrders) add(r.policy(f.policy));
    },
    return: (f) => add(r.existingReturn(f.request)),
    cancellation: (f) => add(r.existingCancellation(f.cancellation)),
    proposed: (_, id) => add(r.proposed(id)),
    error: (f, id) => add(r.businessError(f.code, id)),
    failed: () => add(r.toolFailed),
  };
  for (const { fact, orderId } of facts) {
    (phrase[fact.kind] as (f: Fact, id: string | null) => void)(fact, orderId);
  }
  // Say how to ask for a return only when one could be asked for: every lookup worked and a
  // named order is delivered and not yet returned.
  const orders = facts.flatMap((f) => (f.fact.kind === "order" ? [f.fact.order] : []));
  const allFine = facts.every((f) => f.fact.kind === "order" || f.fact.kind === "policy");
  const returnable = orders.filter((o) => o.status === "delivered" && !o.returnRequest);
  if (policy && allFine && (orders.length === 0 || returnable.length > 0)) {
    add(r.howToAsk(returnable.length === 1 ? returnable[0]!.orderId : null));
  }
  return { behaviour: "answer", text: sentences.join(" ") || r.toolFailed };
}
