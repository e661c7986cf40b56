/**
 * Pure view logic of the confirm card. The card knows no tool: it is driven by the PendingAction
 * shape (plan.order, plan.refund, arguments) plus one small wording table per tool name.
 */
import { formatMoney } from "@/lib/format/money";
import { own } from "@/lib/own";
import type { Decision } from "./api";
import { cardText, type Lang } from "./card-text";
import type { ActionResult, ActionStatus, PendingAction, Plan } from "./schemas";

type ActionCopy = { title: string; noun: string; verb: string };

export function actionCopy(tool: string, lang: Lang = "en"): ActionCopy {
  const t = cardText(lang);
  const words = tool.replaceAll("_", " ");
  return own(t.copy, tool) ?? { title: t.genericTitle, noun: t.genericNoun, verb: words };
}

/** Shown elsewhere on the card (the order block), so not repeated as a row. */
const SHOWN_ELSEWHERE = new Set(["orderId"]);

function humanize(key: string): string {
  const spaced = key.replace(/([a-z])([A-Z])/g, "$1 $2").replaceAll("_", " ");
  return spaced.charAt(0).toUpperCase() + spaced.slice(1).toLowerCase();
}

/** The arguments the customer agrees to, as label/value rows ("Comment: none" rather than a gap). */
export function argumentRows(
  args: Record<string, unknown>,
  lang: Lang = "en",
): { label: string; value: string }[] {
  const t = cardText(lang);
  return Object.entries(args)
    .filter(([key]) => !SHOWN_ELSEWHERE.has(key))
    .map(([key, value]) => ({
      label: own(t.argumentLabels, key) ?? humanize(key),
      value:
        value === null || value === undefined || value === ""
          ? t.none
          : typeof value === "string"
            ? (own(t.valueLabels, value) ?? value)
            : JSON.stringify(value),
    }));
}

function money(
  value: { amount: number; currency: string } | number | undefined,
  currency: string,
  locale: string,
) {
  if (value === undefined) return null;
  return typeof value === "number"
    ? formatMoney(value, currency, locale)
    : formatMoney(value.amount, value.currency, locale);
}

/** Order items with a price each when the plan has one. */
export function itemRows(plan: Plan, lang: Lang = "en"): { key: string; text: string }[] {
  const t = cardText(lang);
  const total = plan.order?.total;
  const currency = (typeof total === "object" ? total.currency : plan.refund?.currency) ?? "EUR";
  return (plan.order?.items ?? []).map((item, i) => {
    const price = money(item.unitPrice ?? item.unitPriceMinor, currency, t.locale);
    return {
      key: `${i}-${item.name}`,
      text: `${item.quantity} × ${item.name}${price ? t.each(price) : ""}`,
    };
  });
}

/** One plain sentence: what pressing Confirm will do. */
export function actionSummary(action: PendingAction, lang: Lang = "en"): string {
  const t = cardText(lang);
  const { verb } = actionCopy(action.tool, lang);
  const orderId = action.plan.order?.id ?? stringArg(action.arguments.orderId);
  const refund = action.plan.refund;
  return t.summary({
    verb,
    orderId,
    refund: refund ? formatMoney(refund.amount, refund.currency, t.locale) : null,
    to: refund?.destination ?? "",
  });
}

function stringArg(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/** What the card shows once it can no longer be clicked. */
export type CardOutcome =
  | { kind: "executed"; result: ActionResult | null }
  | { kind: "already_decided"; status: ActionStatus | null }
  | {
      kind:
        | "cancelled"
        | "expired"
        | "stale"
        | "superseded"
        | "failed"
        | "executing"
        | "not_found"
        | "unreadable";
    };

/** The card's outcome from a live decision (null = still open, the click may be retried). */
export function outcomeFromDecision(decision: Decision): CardOutcome | null {
  if (decision.kind === "retryable") return null;
  if (decision.kind === "executed") return { kind: "executed", result: decision.result };
  return decision;
}

/** The card's outcome from the stored status after a reload (null while pending). */
export function outcomeFromStatus(
  status: ActionStatus,
  result: ActionResult | null,
): CardOutcome | null {
  if (status === "pending") return null;
  if (status === "executed") return { kind: "executed", result };
  return { kind: status };
}

export type OutcomeView = { tone: "success" | "neutral" | "warning"; text: string };

export function describeOutcome(
  outcome: CardOutcome,
  tool: string,
  lang: Lang = "en",
): OutcomeView {
  const t = cardText(lang);
  const { noun } = actionCopy(tool, lang);
  switch (outcome.kind) {
    case "executed": {
      const r = outcome.result;
      if (!r) return { tone: "success", text: t.confirmed };
      return r.createdNow
        ? { tone: "success", text: t.created(noun, r.requestId) }
        : { tone: "neutral", text: t.existed(noun, r.requestId) };
    }
    case "already_decided":
      return {
        tone: "neutral",
        text: t.alreadyDecided(
          (outcome.status && own(t.statusWords, outcome.status)) || t.unknownStatus,
        ),
      };
    case "cancelled":
      return { tone: "neutral", text: t.cancelled };
    case "expired":
      return { tone: "warning", text: t.expired };
    case "stale":
      return { tone: "warning", text: t.stale };
    case "superseded":
      return { tone: "warning", text: t.superseded };
    case "failed":
      return { tone: "warning", text: t.failed };
    case "executing":
      return { tone: "neutral", text: t.executing };
    case "not_found":
      return { tone: "warning", text: t.notFound };
    case "unreadable":
      return { tone: "warning", text: t.unreadable };
  }
}
