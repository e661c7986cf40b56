/**
 * The deterministic conversation summary, as a few labelled lines. lib/ai/summary.ts writes it when
 * older messages are folded; the offline model reads it back from <conversation_summary> to keep
 * the thread (last order, a return request still waiting for its order number). Only these facts
 * are read from it, never instructions.
 */
import type { Reason } from "./lexicon-reasons";
import type { Lang } from "./text";

export type OpenReturn = { orderId: string | null; reason: Reason | null; comment: string | null };

export type SummaryFacts = {
  lang: Lang | null;
  /** Oldest first; the last one is the order most recently talked about. */
  orders: string[];
  /** One line per proposed return: "7718 damaged: proposed, cancelled". */
  actions: string[];
  /** A return the customer asked for that still lacks its order number or reason. */
  open: OpenReturn | null;
  /** The agent's last question that the customer has not answered yet. */
  question: string | null;
};

export const EMPTY_FACTS: SummaryFacts = {
  lang: null,
  orders: [],
  actions: [],
  open: null,
  question: null,
};

const LABELS = {
  lang: "Customer language",
  orders: "Orders mentioned",
  actions: "Actions",
  open: "Unfinished return request",
  question: "Open question",
} as const;

export function renderSummary(f: SummaryFacts): string {
  const lines: string[] = [];
  if (f.lang) lines.push(`${LABELS.lang}: ${f.lang}`);
  if (f.orders.length) lines.push(`${LABELS.orders}: ${f.orders.join(", ")}`);
  if (f.actions.length) lines.push(`${LABELS.actions}: ${f.actions.join("; ")}`);
  if (f.open) {
    const { orderId, reason, comment } = f.open;
    const parts = [`order ${orderId ?? "unknown"}`, `reason ${reason ?? "unknown"}`];
    if (comment) parts.push(`comment "${comment.replaceAll('"', "'")}"`);
    lines.push(`${LABELS.open}: ${parts.join(", ")}`);
  }
  if (f.question) lines.push(`${LABELS.question}: ${f.question}`);
  return lines.join("\n");
}

const line = (text: string, label: string) =>
  text.match(new RegExp(`^${label}: (.*)$`, "m"))?.[1]?.trim() ?? null;

/**
 * Reads the lines renderSummary writes. A summary in another format (e.g. written by a hosted
 * model before the provider changed) still yields its four-digit order numbers.
 */
export function parseSummary(text: string): SummaryFacts {
  const lang = line(text, LABELS.lang);
  const orders = line(text, LABELS.orders);
  const actions = line(text, LABELS.actions);
  const open = line(text, LABELS.open);
  const reason = open?.match(/reason (damaged|defective|other)\b/)?.[1] as Reason | undefined;
  return {
    lang: lang === "ru" || lang === "en" ? lang : null,
    orders: orders
      ? (orders.match(/\b\d{4}\b/g) ?? [])
      : [...new Set(text.match(/(?<!\d)\d{4}(?!\d)/g) ?? [])],
    actions: actions ? actions.split("; ").filter(Boolean) : [],
    open: open
      ? {
          orderId: open.match(/order (\d{4})\b/)?.[1] ?? null,
          reason: reason ?? null,
          comment: open.match(/comment "([^"]*)"/)?.[1] ?? null,
        }
      : null,
    question: line(text, LABELS.question),
  };
}
