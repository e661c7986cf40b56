/**
 * The confirm card as a box of text: the same rows the browser card shows (lib/chat-client
 * action-view: title, order and items, the agreed arguments, the refund, the return window) and
 * the time left to decide.
 */
import { actionCopy, actionSummary, argumentRows, itemRows } from "@/lib/chat-client/action-view";
import { cardText, type Lang } from "@/lib/chat-client/card-text";
import { formatRemaining } from "@/lib/chat-client/countdown";
import type { PendingAction } from "@/lib/chat-client/schemas";
import { formatMoney } from "@/lib/format/money";

/** Display width, close enough for a terminal: combining marks take no column. */
const width = (s: string) => [...s.normalize("NFC")].length;

function wrap(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && width(line) + 1 + width(word) > max) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

function date(iso: string | null | undefined, locale: string): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? null
    : d.toLocaleDateString(locale, { day: "numeric", month: "short", year: "numeric" });
}

/** The rows of the card, label and value, in display order. */
export function cardRows(
  action: PendingAction,
  lang: Lang,
  now: Date,
): { title: string; rows: [string, string][]; summary: string } {
  const t = cardText(lang);
  const plan = action.plan;
  const rows: [string, string][] = [];
  const orderId = plan.order?.id ?? (action.arguments.orderId as string | undefined);
  if (orderId) rows.push([t.order, orderId]);
  itemRows(plan, lang).forEach((item, i) => {
    rows.push([i === 0 ? t.items : "", item.text]);
  });
  for (const a of argumentRows(action.arguments, lang)) rows.push([a.label, a.value]);
  if (plan.refund) {
    const amount = formatMoney(plan.refund.amount, plan.refund.currency, t.locale);
    rows.push([t.refund, `${amount} ${t.refundTo} ${plan.refund.destination}`]);
  }
  const window = date(plan.windowEndsAt, t.locale);
  if (window) rows.push([t.returnWindow, `${t.until} ${window}`]);
  const left = new Date(action.expiresAt).getTime() - now.getTime();
  rows.push([t.expiresIn, formatRemaining(left)]);
  return { title: actionCopy(action.tool, lang).title, rows, summary: actionSummary(action, lang) };
}

/** The boxed card, ready to print. */
export function renderCard(action: PendingAction, lang: Lang, now = new Date()): string {
  const { title, rows, summary } = cardRows(action, lang, now);
  const labelWidth = Math.max(...rows.map(([l]) => width(l)));
  const inner = 64;
  const lines: string[] = [title, ""];
  for (const [label, value] of rows) {
    const wrapped = wrap(value, inner - labelWidth - 2);
    wrapped.forEach((v, i) => {
      const l = i === 0 ? label : "";
      lines.push(`${l}${" ".repeat(labelWidth - width(l))}  ${v}`);
    });
  }
  lines.push("", ...wrap(summary, inner), "", "/confirm  ·  /cancel");
  const w = Math.max(...lines.map(width));
  const pad = (s: string) => `│ ${s}${" ".repeat(w - width(s))} │`;
  return [`┌${"─".repeat(w + 2)}┐`, ...lines.map(pad), `└${"─".repeat(w + 2)}┘`].join("\n");
}
