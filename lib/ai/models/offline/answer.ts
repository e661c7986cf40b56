/**
 * Phrasing the answer once this turn's tools have returned. Only facts read from the results go
 * into the sentence; text inside a result (a delivery note, an error message) is never obeyed and
 * never repeated, and after results the model always answers in text: it cannot be talked into
 * another tool call by what a tool returned.
 */
import { z } from "zod";
import { has, mentionsTool, type Utterance } from "./classify";
import type { Conversation } from "./conversation";
import type { Decision } from "./decide";
import { type Fact, readFact } from "./facts";
import { REPLIES } from "./replies";
import { rowsOf, SINGLE_ROWS, THREAD_ROWS, toolCue } from "./tool-rows";

const ORDER_INPUT = z.object({ orderId: z.string() });

/**
 * `asked`: the customer's words the lookups answer; by default the whole latest message, but of a
 * message with a question and a request only the question (a "cancel 3004" beside "where is
 * 7718?" is not a question about cancelling 7718).
 */
export function answerFromResults(
  c: Conversation,
  asked?: readonly Utterance[],
  visitor = false,
): Decision {
  const r = REPLIES[c.lang];
  const facts = c.outcomes.map((o) => {
    const input = ORDER_INPUT.safeParse(o.input);
    return {
      fact: readFact(o.toolName, o.output),
      orderId: input.success ? input.data.orderId : null,
      tool: o.toolName,
    };
  });
  const policy = facts.find((f) => f.fact.kind === "policy")?.fact;
  const windowDays = policy?.kind === "policy" ? policy.policy.windowDays : null;
  const aboutOrders = facts.some((f) => f.fact.kind === "order");
  // The customer asked whether a write tool's action is still possible ("can I still cancel
  // 3004?"): say so for each order named, in that tool's words.
  const about = asked ?? (c.last ? [c.last] : []);
  // Not a tool the customer only said not to use ("where is 3004? don't cancel it").
  const askedAbout = SINGLE_ROWS.filter((t) =>
    about.some((u) => mentionsTool(u, t.name) && !has(u, toolCue(t.name, "negation"))),
  );

  const sentences: string[] = [];
  const add = (s: string) => {
    if (s && !sentences.includes(s)) sentences.push(s);
  };
  const phrase: {
    [K in Fact["kind"]]: (f: Extract<Fact, { kind: K }>, id: string | null, tool: string) => void;
  } = {
    order: (f) => {
      add(r.order(f.order));
      if (policy) add(r.orderReturnability(f.order, windowDays));
      for (const t of askedAbout) add(t.rows.replies[c.lang].possible(f.order));
    },
    // With an order in the answer, its own window says more than the general rules.
    policy: (f) => {
      if (!aboutOrders) add(r.policy(f.policy));
    },
    existing: (f, _, tool) =>
      add(rowsOf(tool)?.rows.replies[c.lang].existing(f.result) ?? r.toolFailed),
    proposed: (_, id, tool) =>
      add(rowsOf(tool)?.rows.replies[c.lang].proposed(id) ?? r.proposed(id)),
    error: (f, id, tool) => {
      const order = id ? r.orderNamed(id) : r.thatOrder;
      const own = rowsOf(tool)?.rows.replies[c.lang].errors;
      const phrased = own && Object.hasOwn(own, f.code) ? own[f.code] : undefined;
      add(phrased ? phrased(order, cap(order)) : r.businessError(f.code, id));
    },
    failed: () => add(r.toolFailed),
  };
  for (const { fact, orderId, tool } of facts) {
    (phrase[fact.kind] as (f: Fact, id: string | null, tool: string) => void)(fact, orderId, tool);
  }
  // Say how to ask for a return only when one could be asked for: every lookup worked and a
  // named order is delivered and not yet returned. The thread whose extra lookup answered says it.
  const orders = facts.flatMap((f) => (f.fact.kind === "order" ? [f.fact.order] : []));
  const allFine = facts.every((f) => f.fact.kind === "order" || f.fact.kind === "policy");
  const returnable = orders.filter((o) => o.status === "delivered" && !o.returnRequest);
  const thread = THREAD_ROWS.find((t) => t.rows.thread.lookups.includes("policy"));
  if (thread && policy && allFine && (orders.length === 0 || returnable.length > 0)) {
    const id = returnable.length === 1 ? returnable[0]!.orderId : null;
    // A visitor cannot ask for one here: they are told where they can.
    add(visitor ? r.visitorHowToReturn : thread.rows.thread.replies[c.lang].howToAsk(id));
  }
  return { behaviour: "answer", text: sentences.join(" ") || r.toolFailed };
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
