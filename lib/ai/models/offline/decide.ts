/**
 * What to do with the customer's latest message, as an ordered rule table: the first rule whose
 * condition holds decides. The order is the policy: refusals first, then "asking is not
 * requesting", then explicit requests (which need an order number and their arguments), then
 * answers to our own questions, then complaints (offer, never act), status, small talk. The tools
 * come from their rows (tool-rows.ts): a one-message tool by three rules, a thread's (a return's)
 * by the thread rules; no rule here names a tool.
 */
import type { OfflineRead } from "@/lib/tools/offline-types";
import { wordsFitName } from "@/lib/tools/order-lines";
import {
  classify,
  has,
  inThread,
  isFragment,
  mentionsTool,
  requestsThread,
  requestsTool,
  type Utterance,
} from "./classify";
import { type Conversation, lastMentionedOrder } from "./conversation";
import { extractOrderNumbers } from "./extract";
import type { OrderFacts } from "./facts";
import { asksForPerson } from "./handoff";
import { whatICanDo } from "./help";
import type { Reason } from "./lexicon-reasons";
import { REPLIES, type Replies } from "./replies";
import { re, sentences } from "./text";
import {
  readerOf,
  SINGLE_ROWS,
  type SingleRows,
  THREAD_ROWS,
  type ThreadRows,
  TOOL_ROWS,
  type ToolRows,
  toolCue,
} from "./tool-rows";

export type Behaviour =
  | "small_talk"
  | "clarify"
  | "refuse"
  | "status"
  | "policy"
  | "propose"
  | "answer"
  /** Two requests in one message: the question's lookups now, the write proposed with the answer. */
  | "status+propose"
  /** The customer asked for a person: `request_human`, no confirmation. */
  | "handoff";
export type PlannedCall = { toolName: string; input: Record<string, unknown> };
export type Decision =
  | {
      behaviour: Behaviour;
      text: string;
      calls?: undefined;
      /** Decided from an order's lookup, so also the answer once this turn's lookup returned. */
      afterLookup?: true;
    }
  /** Calls, optionally after a sentence (an answer given before proposing the next step). */
  | { behaviour: Behaviour; calls: PlannedCall[]; text?: string; afterLookup?: undefined };

type Ctx = { u: Utterance; c: Conversation; r: Replies };
type Rule = { name: string; when: (x: Ctx) => boolean; act: (x: Ctx) => Decision };

const MAX_PARALLEL_LOOKUPS = 3;

/** The earlier messages of the tool's current thread, most recent first. */
function threadOf(tool: ThreadRows, c: Conversation): Utterance[] {
  const out: Utterance[] = [];
  for (const t of c.thread) {
    if (!inThread(t, tool)) break;
    out.push(t);
  }
  return out;
}

/**
 * The customer already asked for it (a return), or described a problem we offered it for; or the
 * summary kept an unfinished request (it keeps one).
 */
const threadOpen = (tool: ThreadRows, c: Conversation) =>
  threadOf(tool, c).some((t) => requestsThread(t, tool) || (isFragment(t) && t.reason !== null)) ||
  c.summaryOpen !== null;

/** Our last answer ended with an offer of the tool (after a complaint or a question about it). */
const offered = (tool: ThreadRows, c: Conversation) =>
  threadOpen(tool, c) || threadOf(tool, c).some((t) => has(t, toolCue(tool.name, "question")));

/** We asked "which order?" for a status question. */
const statusOpen = (c: Conversation) => {
  const t = c.thread[0];
  return t !== undefined && has(t, "order_status") && t.ids.length === 0;
};

type Slots = { ids: string[]; malformed: string[]; reason: Reason | null; comment: string | null };

/** "it", "then", "его", "тогда": the message leans on what was said just before. */
const REFERS_BACK = re(
  String.raw`\b(it|this|that|them|then|this one|that one|its|его|ее|их|него|нее|этот|эту|это|тогда|он|она)\b`,
);

/**
 * The order the previous customer message named, when this one refers back to it ("Was 7718
 * delivered?" then "Then please take it back"): one order only, never a guess between several.
 */
function previousOrder({ u, c }: Ctx): string[] {
  const before = c.thread[0];
  if (before?.ids.length !== 1 || !REFERS_BACK.test(u.canon)) return [];
  return before.ids;
}

/**
 * Order number and complaint from this message, else from the thread, else the summary, else the
 * single order of the previous message when this one refers back to it.
 */
function slots(tool: ThreadRows, x: Ctx): Slots {
  const { u, c } = x;
  const chain = [u, ...threadOf(tool, c)];
  const withIds = chain.find((t) => t.ids.length > 0);
  const withReason = chain.find((t) => t.reason !== null)?.reason;
  const open = c.summaryOpen;
  const summaryId = open?.orderId ? [open.orderId] : [];
  const earlier = summaryId.length > 0 ? summaryId : previousOrder(x);
  return {
    ids: withIds?.ids ?? earlier,
    malformed: u.malformed,
    reason: withReason?.reason ?? open?.reason ?? null,
    comment: withReason ? withReason.comment : (open?.comment ?? null),
  };
}

const say = (behaviour: Behaviour, pick: (r: Replies, can: string) => string) => (x: Ctx) => ({
  behaviour,
  text: pick(x.r, whatICanDo(x.c.lang)),
});

/** The words for the lines a message names ("the bed sheets"), none when it names none. */
function namedLines(tool: ThreadRows, u: Utterance, lang: Conversation["lang"]): string[] {
  const { items } = tool.rows.thread.args({ reason: "other", comment: null }, [message(u, lang)]);
  if (!Array.isArray(items)) return [];
  return items.flatMap((i: { line?: unknown }) => (typeof i.line === "string" ? [i.line] : []));
}

/** The order looked up has every line named (by the words the tool chooses lines with). */
const holds = (order: OrderFacts, lines: readonly string[]) =>
  lines.every((line) => order.items.some((i) => wordsFitName(line, i.name)));

type Target = { orderId: string } | { notIn: string };

/**
 * The order of a request, when the thread's newest message that names items came after the
 * message that named the order: an order whose looked-up items lack them is not it ("can I
 * return 7718?" then "return 1 of the 2 bed sheets": the sheets are not in 7718). The one
 * looked-up order that holds them is; with none or several, the customer is asked which order.
 */
function carriedTarget(tool: ThreadRows, x: Ctx, orderId: string): Target {
  const chain = [x.u, ...threadOf(tool, x.c)];
  const named = chain
    .map((t) => namedLines(tool, t, x.c.lang))
    .findIndex((lines) => lines.length > 0);
  const ordered = chain.findIndex((t) => t.ids.length > 0);
  if (named < 0 || (ordered >= 0 && ordered <= named)) return { orderId };
  const lines = namedLines(tool, chain[named]!, x.c.lang);
  const carried = x.c.orders.get(orderId);
  if (!carried || holds(carried, lines)) return { orderId };
  const holders = [...x.c.orders.values()].filter((o) => holds(o, lines));
  return holders.length === 1 ? { orderId: holders[0]!.orderId } : { notIn: orderId };
}

/**
 * A request whose reason is still to be asked: first the policy's word on the order (its lookup
 * says whether a return is possible, by the tool's own rule), so a return that cannot be is
 * refused at once, in the tool's words, instead of after the customer gave a reason.
 */
function askReasonOrRefuse(tool: ThreadRows, x: Ctx, orderId: string): Decision {
  const known = x.c.orders.get(orderId);
  if (!known) return { behaviour: "status", calls: lookups([orderId]) };
  const word = known.returnable;
  if (word && !word.eligible) {
    const order = x.r.orderNamed(orderId);
    const own = tool.rows.replies[x.c.lang].errors;
    const phrased = Object.hasOwn(own, word.code) ? own[word.code] : undefined;
    return {
      behaviour: "refuse",
      text: phrased ? phrased(order, cap(order)) : x.r.businessError(word.code, orderId),
      afterLookup: true,
    };
  }
  return {
    behaviour: "clarify",
    text: tool.rows.thread.replies[x.c.lang].askComplaint(orderId),
    afterLookup: true,
  };
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A thread's request: once its order and complaint are known, else one question for them. */
function propose(tool: ThreadRows) {
  return (x: Ctx): Decision => {
    const { ids, malformed, reason, comment } = slots(tool, x);
    const r = tool.rows.thread.replies[x.c.lang];
    const ask = (text: string): Decision => ({ behaviour: "clarify", text });
    if (ids.length > 1) return ask(tool.rows.replies[x.c.lang].askWhich(ids));
    const first = ids[0];
    if (!first && malformed[0]) return ask(x.r.malformedNumber(malformed[0]));
    if (!first) return ask(reason ? r.askOrder(reason) : r.askOrderAndComplaint);
    const target = carriedTarget(tool, x, first);
    if ("notIn" in target) return ask(r.askOrderOfItems(target.notIn));
    const { orderId } = target;
    if (!reason) return askReasonOrRefuse(tool, x, orderId);
    return {
      behaviour: "propose",
      calls: [
        {
          toolName: tool.name,
          input: {
            orderId,
            // The thread's messages, newest first: what they say of the items, too.
            ...tool.rows.thread.args(
              { reason, comment },
              [x.u, ...threadOf(tool, x.c)].map((t) => message(t, x.c.lang)),
            ),
          },
        },
      ],
    };
  };
}

/** What the rows see of a message. */
const message = (u: Utterance, lang: Conversation["lang"]) => ({
  text: u.text,
  canon: u.canon,
  lang: u.lang ?? lang,
});

/** The order numbers of a message, read only where the tool says they are (not in an address). */
function orderIdsFor(tool: ToolRows, u: Utterance, c: Conversation): Utterance["ids"] {
  if (!tool.rows.orderPart) return u.ids;
  return extractOrderNumbers(tool.rows.orderPart(message(u, c.lang))).ids;
}

/**
 * The request for this tool that our question is still open on (which order, or a missing
 * argument): the customer's message before this one, or an earlier one when only questions, or
 * the order number we asked for, came in between ("change the address of 3004", "where is
 * 8041?", then the address; "change my address", "3004", then the address). A request for
 * anything else, or a "don't", closes it.
 */
function openRequest(tool: SingleRows, c: Conversation): Utterance | null {
  for (const [i, t] of c.thread.entries()) {
    if (requestsTool(t, tool.name)) {
      if (i === 0) return t;
      const read = tool.rows.args(message(t, c.lang), null);
      return read.missing ? t : null;
    }
    if (!asksOnly(t) && !answersOrder(t)) return null;
  }
  return null;
}

/** A bare order number: what the customer sends when we asked which order. */
const answersOrder = (t: Utterance) => isFragment(t) && t.ids.length > 0;

/** The order number sent after the open request, when the request itself named none. */
function answeredOrder(tool: SingleRows, c: Conversation): string[] {
  for (const t of c.thread) {
    if (requestsTool(t, tool.name)) return [];
    if (answersOrder(t)) return orderIdsFor(tool, t, c);
  }
  return [];
}

const THREAD_QUESTIONS = THREAD_ROWS.map((t) => toolCue(t.name, "question"));
const THREAD_REQUESTS = THREAD_ROWS.map((t) => toolCue(t.name, "request"));

/** A message that only asks something (a status or policy question), requesting nothing. */
const asksOnly = (t: Utterance) =>
  has(t, "order_status", "asking", ...THREAD_QUESTIONS) &&
  !has(t, "deny", "affirm", ...THREAD_REQUESTS) &&
  !SINGLE_ROWS.some((r) => mentionsTool(t, r.name));

const toolOpen = (tool: SingleRows, c: Conversation) => openRequest(tool, c) !== null;

/**
 * The one order a status question just before this request was about ("Where is my order 3004?"
 * then "Please change the delivery address to ..."): what the request means, with nothing else
 * named since.
 */
function askedAboutJustBefore(c: Conversation): string[] {
  const before = c.thread[0];
  return before?.ids.length === 1 && has(before, "order_status") ? before.ids : [];
}

/**
 * An explicit request for a write tool: its order from this message, else the one of the request
 * we asked about (or the number sent when we asked which order), else the single order of the
 * previous message when this one refers back ("Where is 3004?" then "Then cancel it"); never a
 * guess between several. Then the tool's own arguments, or one question for the first one missing.
 */
function proposeWith(tool: SingleRows) {
  return (x: Ctx): Decision => {
    const ask = (text: string): Decision => ({ behaviour: "clarify", text });
    const r = tool.rows.replies[x.c.lang];
    const isRequest = requestsTool(x.u, tool.name);
    const request = isRequest ? null : openRequest(tool, x.c);
    const read = tool.rows.args(message(x.u, x.c.lang), request && message(request, x.c.lang));
    if (read.refusal) return { behaviour: "refuse", text: read.refusal };
    const here = orderIdsFor(tool, x.u, x.c);
    const requested = request ? orderIdsFor(tool, request, x.c) : [];
    const before = requested.length || !request ? requested : answeredOrder(tool, x.c);
    const earlier = isRequest ? previousOrder(x) : [];
    const ids = here.length
      ? here
      : before.length
        ? before
        : earlier.length
          ? earlier
          : isRequest
            ? askedAboutJustBefore(x.c)
            : [];
    if (ids.length > 1) return ask(r.askWhich(ids));
    const orderId = ids[0];
    if (!orderId && x.u.malformed[0]) return ask(x.r.malformedNumber(x.u.malformed[0]));
    if (!orderId) return ask(r.askOrder);
    if (!read.args) return ask(r.askMissing(read.missing!, orderId));
    return {
      behaviour: "propose",
      calls: [{ toolName: tool.name, input: { orderId, ...read.args } }],
    };
  };
}

/** Asking whether the tool's action is possible (or saying not to): look it up, never propose. */
function infoWith(tool: ToolRows) {
  return (x: Ctx): Decision => {
    const r = tool.rows.replies[x.c.lang];
    const negated = has(x.u, toolCue(tool.name, "negation"), "not_requesting");
    const ids = orderIdsFor(tool, x.u, x.c);
    // "Where is 3004? Don't cancel it yet": the status is still asked for, and nothing proposed.
    const asksStatus = has(x.u, "order_status") && ids.length > 0;
    if (negated && !has(x.u, toolCue(tool.name, "question")) && !asksStatus)
      return { behaviour: "small_talk", text: r.notDoing };
    if (ids.length) return { behaviour: "status", calls: lookups(ids) };
    return { behaviour: "clarify", text: r.askOrderForQuestion };
  };
}

/**
 * This message brings what the tool's request before it lacked (the new address after "what is
 * the new address?"), and asks nothing itself.
 */
function answersMissing(tool: SingleRows, u: Utterance, c: Conversation): boolean {
  const request = openRequest(tool, c);
  if (!request || u.cues.size > 0) return false;
  const before = tool.rows.args(message(request, c.lang), null);
  if (!before.missing) return false;
  const now = tool.rows.args(message(u, c.lang), message(request, c.lang));
  return Boolean(now.args || now.refusal);
}

/** The same three rules for every one-message write tool with rows, in registry order. */
const toolRules = (): Rule[] =>
  SINGLE_ROWS.flatMap((tool) => [
    {
      name: `asking about ${tool.name}, or saying not to`,
      when: ({ u }: Ctx) =>
        mentionsTool(u, tool.name) && !requestsTool(u, tool.name) && !has(u, "unsupported"),
      act: infoWith(tool),
    },
    {
      name: `explicit ${tool.name} request`,
      when: ({ u }: Ctx) => requestsTool(u, tool.name),
      act: proposeWith(tool),
    },
    {
      name: `answers our ${tool.name} question`,
      when: ({ u, c }: Ctx) =>
        toolOpen(tool, c) && ((isFragment(u) && u.ids.length > 0) || answersMissing(tool, u, c)),
      act: proposeWith(tool),
    },
  ]);

/** The orders' lookups, by the read tool that reads an order. */
function lookups(ids: string[]): PlannedCall[] {
  const toolName = readerOf("order");
  if (!toolName) return [];
  return ids.slice(0, MAX_PARALLEL_LOOKUPS).map((orderId) => ({ toolName, input: { orderId } }));
}

/** The lookups of what takes no input (the policy), by the read tools that read it. */
const readsOf = (kinds: readonly OfflineRead[]): PlannedCall[] =>
  kinds.flatMap((kind) => {
    const toolName = readerOf(kind);
    return toolName ? [{ toolName, input: {} }] : [];
  });

function status(x: Ctx): Decision {
  const ids = x.u.ids.length ? x.u.ids : [lastMentionedOrder(x.c)].filter((i) => i !== null);
  if (ids.length) return { behaviour: "status", calls: lookups(ids) };
  if (x.u.malformed[0])
    return { behaviour: "clarify", text: x.r.malformedNumber(x.u.malformed[0]) };
  return { behaviour: "clarify", text: x.r.askOrderForStatus };
}

/**
 * Asking about a thread's tool (returns): its extra lookups (the policy), plus the order itself
 * when one is named. Never a proposal.
 */
const policy =
  (tool: ThreadRows) =>
  (x: Ctx): Decision => ({
    behaviour: "policy",
    calls: [...readsOf(tool.rows.thread.lookups), ...lookups(x.u.ids).slice(0, 2)],
  });

/** A complaint without a request: the thread's offer, never an action. */
function offer(tool: ThreadRows) {
  return (x: Ctx): Decision => {
    const { ids, reason } = slots(tool, x);
    const r = tool.rows.thread.replies[x.c.lang];
    return {
      behaviour: "clarify",
      text: r.offer(ids.length === 1 ? ids[0]! : null, reason ?? "other"),
    };
  };
}

/** A thread's request, or a question about it: asking is not requesting. */
const threadRules = (): Rule[] =>
  THREAD_ROWS.flatMap((tool) => {
    const request = toolCue(tool.name, "request");
    const question = toolCue(tool.name, "question");
    return [
      {
        name: `asking about ${tool.name}, not requesting`,
        when: ({ u }: Ctx) => has(u, request, question) && has(u, "asking", "not_requesting"),
        act: policy(tool),
      },
      {
        name: `explicit ${tool.name} request`,
        when: ({ u }: Ctx) => has(u, request),
        act: propose(tool),
      },
      {
        name: `question about ${tool.name}`,
        when: ({ u }: Ctx) => has(u, question),
        act: policy(tool),
      },
    ];
  });

/** Answers to a thread's offer or question: "yes", or the order number or complaint it lacked. */
const threadAnswers = (): Rule[] =>
  THREAD_ROWS.flatMap((tool) => [
    {
      name: `accepts our ${tool.name} offer`,
      when: ({ u, c }: Ctx) => has(u, "affirm") && offered(tool, c),
      act: propose(tool),
    },
    {
      name: `answers our ${tool.name} question`,
      when: ({ u, c }: Ctx) => isFragment(u) && threadOpen(tool, c),
      act: propose(tool),
    },
  ]);

/** A complaint alone ("7718 arrived broken"): the first thread's offer. */
const complaints = (): Rule[] =>
  THREAD_ROWS.slice(0, 1).map((tool) => ({
    name: "complaint",
    when: ({ u }: Ctx) => u.reason !== null,
    act: offer(tool),
  }));

/**
 * Two requests in one message, in either order: a question a read tool answers ("Where is 3004?",
 * "can I still cancel 8041?", "what is your return policy?") and a request for any write tool.
 * Each sentence is first decided alone: those that only look something up are the question, the
 * rest together must make a complete proposal, read as if the question had been the message before
 * it (so "Where is 3004? Then cancel it" cancels 3004). The turn then runs as a careful agent would:
 * look up first, and in the next step answer and propose. Anything less clear-cut is left to the
 * single-message rules (which ask one question).
 */
export type Compound = {
  /** The question's sentences, as the customer wrote them. */
  questions: Utterance[];
  lookups: PlannedCall[];
  write: PlannedCall;
};

/** A sentence that asks something a read tool answers, not a bare number or a fragment. */
const asksSomething = (s: Utterance) =>
  has(s, "order_status", "asking") || TOOL_ROWS.some((t) => has(s, toolCue(t.name, "question")));

const READS_ONLY = new Set<Behaviour>(["status", "policy"]);

export function splitCompound(u: Utterance, c: Conversation): Compound | null {
  const parts = sentences(u.text).map((t) => classify(t));
  if (parts.length < 2) return null;
  const questions: Utterance[] = [];
  const lookupCalls: PlannedCall[] = [];
  const rest: Utterance[] = [];
  for (const s of parts) {
    const alone = asksSomething(s) ? decideForMessage(s, c) : null;
    if (alone?.calls && READS_ONLY.has(alone.behaviour)) {
      questions.push(s);
      lookupCalls.push(...alone.calls);
    } else rest.push(s);
  }
  if (questions.length === 0 || rest.length === 0) return null;
  const request = classify(rest.map((s) => s.text).join(" "));
  // What the customer said before the request, most recent first, is what "it" refers back to.
  const before = questions.filter((q) => parts.indexOf(q) < parts.indexOf(rest[0]!)).reverse();
  const d = decideForMessage(request, { ...c, thread: [...before, ...c.thread] });
  const write = d.behaviour === "propose" ? d.calls?.[0] : undefined;
  if (!write) return null;
  const seen = new Set<string>();
  const lookups = lookupCalls.filter((call) => {
    const key = JSON.stringify(call);
    return !seen.has(key) && Boolean(seen.add(key));
  });
  return { questions, lookups, write };
}

/** The write still to make in this turn: the compound's, if no step has called it. */
export function remainingWrite(
  compound: Compound | null,
  called: readonly { toolName: string }[],
): PlannedCall | null {
  if (!compound) return null;
  return called.some((c) => c.toolName === compound.write.toolName) ? null : compound.write;
}

export const RULES: Rule[] = [
  {
    name: "forbidden",
    when: ({ u }) => has(u, "forbidden"),
    act: say("refuse", (r) => r.forbidden),
  },
  {
    name: "asks for a person",
    when: ({ u }) => asksForPerson(u),
    act: () => ({ behaviour: "handoff", calls: [{ toolName: "request_human", input: {} }] }),
  },
  {
    name: "a question and a request",
    when: ({ u, c }) => splitCompound(u, c) !== null,
    act: ({ u, c }) => ({ behaviour: "status+propose", calls: splitCompound(u, c)!.lookups }),
  },
  ...toolRules(),
  {
    name: "no tool for it",
    when: ({ u }) => has(u, "unsupported"),
    act: say("refuse", (r, can) => r.unsupported(can)),
  },
  ...threadRules(),
  { name: "declines", when: ({ u }) => has(u, "deny"), act: say("small_talk", (r) => r.denied) },
  ...threadAnswers(),
  {
    name: "answers our status question",
    when: ({ u, c }) => isFragment(u) && u.ids.length > 0 && statusOpen(c),
    act: status,
  },
  ...complaints(),
  { name: "order status", when: ({ u }) => has(u, "order_status"), act: status },
  { name: "bare order number", when: ({ u }) => u.ids.length > 0, act: status },
  {
    name: "malformed order number",
    when: ({ u }) => u.malformed.length > 0,
    act: ({ u, r }) => ({ behaviour: "clarify", text: r.malformedNumber(u.malformed[0]!) }),
  },
  {
    name: "greeting",
    when: ({ u }) => has(u, "greeting"),
    act: say("small_talk", (r) => r.greeting),
  },
  { name: "thanks", when: ({ u }) => has(u, "thanks"), act: say("small_talk", (r) => r.thanks) },
  {
    name: "farewell",
    when: ({ u }) => has(u, "farewell"),
    act: say("small_talk", (r) => r.farewell),
  },
  {
    name: "capabilities",
    when: ({ u }) => has(u, "capabilities"),
    act: say("small_talk", (r, can) => r.capabilities(can)),
  },
  {
    name: "yes to nothing",
    when: ({ u }) => has(u, "affirm"),
    act: say("small_talk", (r) => r.affirmedNothing),
  },
  { name: "fallback", when: () => true, act: say("small_talk", (r, can) => r.fallback(can)) },
];

/** The decision for the customer's latest message. */
export function decideForMessage(u: Utterance, c: Conversation): Decision & { rule: string } {
  const x: Ctx = { u, c, r: REPLIES[c.lang] };
  const rule = RULES.find((r) => r.when(x))!;
  return { ...rule.act(x), rule: rule.name };
}
