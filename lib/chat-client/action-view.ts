/**
 * Pure view logic of the confirm card. The card knows no tool: it is driven by the PendingAction
 * shape (plan.order, plan.refund, arguments) plus one small wording table per tool name.
 */
import { formatMoney } from "@/lib/format/money";
import type { Decision } from "./api";
import type { ActionResult, ActionStatus, PendingAction, Plan } from "./schemas";

type ActionCopy = { title: string; noun: string; verb: string };

const ACTION_COPY: Record<string, ActionCopy> = {
  create_return_request: {
    title: "Confirm your return request",
    noun: "Return request",
    verb: "create a return request",
  },
};

export function actionCopy(tool: string): ActionCopy {
  const words = tool.replaceAll("_", " ");
  return ACTION_COPY[tool] ?? { title: "Confirm this action", noun: "Request", verb: words };
}

const ARGUMENT_LABELS: Record<string, string> = { reason: "Reason", comment: "Comment" };
const VALUE_LABELS: Record<string, string> = {
  defective: "Defective",
  damaged: "Arrived damaged",
  other: "Other",
};
/** Shown elsewhere on the card (the order block), so not repeated as a row. */
const SHOWN_ELSEWHERE = new Set(["orderId"]);

function humanize(key: string): string {
  const spaced = key.replace(/([a-z])([A-Z])/g, "$1 $2").replaceAll("_", " ");
  return spaced.charAt(0).toUpperCase() + spaced.slice(1).toLowerCase();
}

/** The arguments the customer agrees to, as label/value rows ("Comment: none" rather than a gap). */
export function argumentRows(args: Record<string, unknown>): { label: string; value: string }[] {
  return Object.entries(args)
    .filter(([key]) => !SHOWN_ELSEWHERE.has(key))
    .map(([key, value]) => ({
      label: ARGUMENT_LABELS[key] ?? humanize(key),
      value:
        value === null || value === undefined || value === ""
          ? "None"
          : typeof value === "string"
            ? (VALUE_LABELS[value] ?? value)
            : JSON.stringify(value),
    }));
}

function money(value: { amount: number; currency: string } | number | undefined, currency: string) {
  if (value === undefined) return null;
  return typeof value === "number"
    ? formatMoney(value, currency)
    : formatMoney(value.amount, value.currency);
}

/** Order items with a price each when the plan has one. */
export function itemRows(plan: Plan): { key: string; text: string }[] {
  const total = plan.order?.total;
  const currency = (typeof total === "object" ? total.currency : plan.refund?.currency) ?? "EUR";
  return (plan.order?.items ?? []).map((item, i) => {
    const price = money(item.unitPrice ?? item.unitPriceMinor, currency);
    return {
      key: `${i}-${item.name}`,
      text: `${item.quantity} × ${item.name}${price ? ` (${price} each)` : ""}`,
    };
  });
}

/** One plain sentence: what pressing Confirm will do. */
export function actionSummary(action: PendingAction): string {
  const { verb } = actionCopy(action.tool);
  const orderId = action.plan.order?.id ?? stringArg(action.arguments.orderId);
  const refund = action.plan.refund;
  const target = orderId ? ` for order ${orderId}` : "";
  const refundText = refund
    ? ` and refund ${formatMoney(refund.amount, refund.currency)} to ${refund.destination}`
    : "";
  return `If you confirm, we will ${verb}${target}${refundText}. Nothing happens until you confirm.`;
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

const STATUS_WORDS: Record<ActionStatus, string> = {
  pending: "still pending",
  executing: "being processed",
  executed: "confirmed",
  cancelled: "cancelled",
  expired: "expired",
  superseded: "replaced by a newer request",
  stale: "no longer valid",
  failed: "failed",
};

export type OutcomeView = { tone: "success" | "neutral" | "warning"; text: string };

export function describeOutcome(outcome: CardOutcome, tool: string): OutcomeView {
  const { noun } = actionCopy(tool);
  switch (outcome.kind) {
    case "executed": {
      const r = outcome.result;
      if (!r) return { tone: "success", text: "Confirmed." };
      return r.createdNow
        ? { tone: "success", text: `${noun} created. Request ID: ${r.requestId}.` }
        : {
            tone: "neutral",
            text: `A ${noun.toLowerCase()} already existed (ID ${r.requestId}). Nothing new was created.`,
          };
    }
    case "already_decided":
      return {
        tone: "neutral",
        text: `Already decided in another tab: ${outcome.status ? STATUS_WORDS[outcome.status] : "unknown status"}.`,
      };
    case "cancelled":
      return { tone: "neutral", text: "Cancelled. Nothing was created." };
    case "expired":
      return {
        tone: "warning",
        text: "This offer expired. Nothing was created. Ask again if you still want it.",
      };
    case "stale":
      return {
        tone: "warning",
        text: "No longer valid: the order changed since this was proposed. Nothing was created. Ask again for a fresh proposal.",
      };
    case "superseded":
      return {
        tone: "warning",
        text: "No longer valid: a newer request or a new chat replaced it. Nothing was created.",
      };
    case "failed":
      return {
        tone: "warning",
        text: "Something went wrong and nothing was created. Please try again in a moment.",
      };
    case "executing":
      return { tone: "neutral", text: "Being processed…" };
    case "not_found":
      return { tone: "warning", text: "This request no longer exists. Nothing was created." };
    case "unreadable":
      return {
        tone: "warning",
        text: "We could not read the answer. Reload the page to see the current state.",
      };
  }
}
