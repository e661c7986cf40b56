/**
 * The confirm card as a box of text: the same view the browser card renders (the tool's
 * describe(), already in the chat's language: title, rows, the highlighted amount, any warning)
 * and the time left to decide. Knows no tool.
 */
import { createTranslator } from "use-intl/core";
import { formatRemaining } from "@/lib/chat-client/countdown";
import type { PendingAction } from "@/lib/chat-client/schemas";
import { messagesFor } from "@/lib/i18n/messages";
import type { Locale } from "@/lib/text/language";

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

/** The rows of the card, label and value, in display order. */
export function cardRows(
  action: PendingAction,
  lang: Locale,
  now: Date,
): { title: string; rows: [string, string][]; summary: string } {
  const t = createTranslator({
    locale: lang,
    messages: messagesFor(lang),
    namespace: "conversation.card",
  });
  const { view } = action;
  const rows: [string, string][] = [];
  for (const row of view.rows) {
    const values = Array.isArray(row.value) ? row.value : [row.value];
    values.forEach((v, i) => {
      rows.push([i === 0 ? row.label : "", v]);
    });
  }
  if (view.amount) {
    const detail = view.amount.detail ? ` ${view.amount.detail}` : "";
    rows.push([view.amount.label, `${view.amount.value}${detail}`]);
  }
  const left = new Date(action.expiresAt).getTime() - now.getTime();
  rows.push([t("expiresIn"), formatRemaining(left)]);
  const a = createTranslator({
    locale: lang,
    messages: messagesFor(lang),
    namespace: "conversation.approval",
  });
  // Said before Confirm, as on the web card: staff approve a refund above the threshold.
  const notes = [view.summary, view.warning, action.requiresApproval ? a("notice") : null];
  const summary = notes.filter(Boolean).join(" ");
  return { title: view.title, rows, summary };
}

/** The boxed card, ready to print. */
export function renderCard(action: PendingAction, lang: Locale, now = new Date()): string {
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
