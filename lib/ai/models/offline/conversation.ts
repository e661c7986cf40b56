/**
 * Reads the AI SDK prompt the offline model receives into the few things it reasons about: the
 * customer's messages, the tool results of the current turn, and the facts in the summary.
 */
import type {
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultOutput,
} from "@ai-sdk/provider";
import { classify, inThread, type Utterance } from "./classify";
import { type OrderFacts, readFact } from "./facts";
import { type OpenReturn, parseSummary, type SummaryFacts } from "./summary-format";
import type { Lang } from "./text";
import { THREAD_ROWS } from "./tool-rows";

export type ToolOutcome = {
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** undefined when the loop sent no result for the call (it should not happen). */
  output: LanguageModelV3ToolResultOutput | undefined;
};

export type Conversation = {
  /** Every customer message, oldest first. */
  users: Utterance[];
  /** The customer's latest message, if the prompt has one. */
  last: Utterance | null;
  /** Tool calls made since the latest customer message, with their results, in call order. */
  outcomes: ToolOutcome[];
  /**
   * Earlier customer messages of the same thread, most recent first: back to the last proposed
   * return (a proposal closes a thread), at most four.
   */
  thread: Utterance[];
  summary: SummaryFacts | null;
  /**
   * The summary's unfinished request of a thread's tool (a return), if nothing since the fold
   * closed it: no proposal and every later customer message still part of that thread.
   */
  summaryOpen: OpenReturn | null;
  /** The customer's language: of the latest message with letters, else the summary's, else en. */
  lang: Lang;
  /**
   * Every order a lookup anywhere in the prompt answered (this turn's and earlier turns'), by its
   * id, as the latest lookup of it read it: what the model knows of an order's items and of the
   * policy's word on returning it.
   */
  orders: ReadonlyMap<string, OrderFacts>;
};

const SUMMARY_BLOCK = /<conversation_summary>([\s\S]*?)<\/conversation_summary>/;
const THREAD_LIMIT = 4;

/**
 * A proposal is recognised by its result (the app answers a write with confirmation_required),
 * not by a tool name: whatever write the customer was shown a card for closes the thread.
 */
function isProposal(output: LanguageModelV3ToolResultOutput): boolean {
  const value = output.type === "json" || output.type === "error-json" ? output.value : null;
  return (
    typeof value === "object" &&
    value !== null &&
    "status" in value &&
    value.status === "confirmation_required"
  );
}

function userText(m: Extract<LanguageModelV3Message, { role: "user" }>): string {
  return m.content
    .flatMap((p) => (p.type === "text" ? [p.text] : []))
    .join("\n")
    .trim();
}

export function readConversation(prompt: LanguageModelV3Prompt): Conversation {
  const system = prompt.flatMap((m) => (m.role === "system" ? [m.content] : [])).join("\n");
  const block = system.match(SUMMARY_BLOCK)?.[1];
  const summary = block ? parseSummary(block) : null;

  const lastUserIndex = prompt.findLastIndex((m) => m.role === "user");
  const users: Utterance[] = [];
  // Index in `users` after which a write proposal happened: the thread cannot reach past it.
  let threadStart = 0;
  prompt.forEach((m, i) => {
    if (m.role === "user") {
      // Kept even when empty so `last` is always the latest customer message.
      users.push(classify(userText(m)));
    } else if (m.role === "tool" && i < lastUserIndex) {
      if (m.content.some((p) => p.type === "tool-result" && isProposal(p.output))) {
        threadStart = users.length;
      }
    }
  });

  const tail = lastUserIndex >= 0 ? prompt.slice(lastUserIndex + 1) : prompt;
  const results = new Map<string, LanguageModelV3ToolResultOutput>();
  for (const m of tail) {
    if (m.role !== "tool") continue;
    for (const p of m.content) if (p.type === "tool-result") results.set(p.toolCallId, p.output);
  }
  const outcomes: ToolOutcome[] = tail.flatMap((m) =>
    m.role === "assistant"
      ? m.content.flatMap((p) =>
          p.type === "tool-call"
            ? [
                {
                  toolCallId: p.toolCallId,
                  toolName: p.toolName,
                  input: p.input,
                  output: results.get(p.toolCallId),
                },
              ]
            : [],
        )
      : [],
  );

  const last = lastUserIndex >= 0 ? (users.at(-1) ?? null) : null;
  const earlier = users.slice(threadStart, Math.max(threadStart, users.length - 1));
  const thread = earlier.reverse().slice(0, THREAD_LIMIT);
  const lang = [...users].reverse().find((u) => u.lang)?.lang ?? summary?.lang ?? "en";
  const stillOpen =
    threadStart === 0 && earlier.every((u) => THREAD_ROWS.some((t) => inThread(u, t)));
  const summaryOpen = stillOpen ? (summary?.open ?? null) : null;
  return {
    users,
    last,
    outcomes,
    thread,
    summary,
    summaryOpen,
    lang,
    orders: lookedUpOrders(prompt),
  };
}

/** The orders the prompt's lookups answered, by id; a later answer replaces an earlier one. */
function lookedUpOrders(prompt: LanguageModelV3Prompt): Map<string, OrderFacts> {
  const outputs = new Map<string, LanguageModelV3ToolResultOutput>();
  for (const m of prompt) {
    if (m.role !== "tool") continue;
    for (const p of m.content) if (p.type === "tool-result") outputs.set(p.toolCallId, p.output);
  }
  const orders = new Map<string, OrderFacts>();
  for (const m of prompt) {
    if (m.role !== "assistant") continue;
    for (const p of m.content) {
      if (p.type !== "tool-call") continue;
      const fact = readFact(p.toolName, outputs.get(p.toolCallId));
      if (fact.kind === "order") orders.set(fact.order.orderId, fact.order);
    }
  }
  return orders;
}

/** The order most recently mentioned by the customer, here or in the summary. */
export function lastMentionedOrder(c: Conversation): string | null {
  for (const u of [...c.users].reverse()) {
    const id = u.ids.at(-1);
    if (id) return id;
  }
  return c.summary?.orders.at(-1) ?? null;
}
