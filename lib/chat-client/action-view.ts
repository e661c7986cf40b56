/**
 * Pure view logic of the confirm card. The card knows no tool: what an action is and does comes
 * from its `view` (the tool's describe(), rendered by the server in the chat's language); only
 * the generic states (cancelled, expired, ...) are worded here, from the catalogue
 * (conversation.card.outcome) of the chat's language.
 */
import { createTranslator } from "use-intl/core";
import type { Locale } from "@/lib/i18n/locales";
import type { ConversationMessages } from "@/lib/i18n/messages";
import type { Decision } from "./decision";
import { ACTION_STATUSES, type ActionStatus, type PendingAction } from "./schemas";

/** The tool's note on an executed action (created, or already there). */
export type ExecutedNote = PendingAction["view"]["outcome"];

/** What the card shows once it can no longer be clicked. */
export type CardOutcome =
  | { kind: "executed"; note: ExecutedNote }
  | { kind: "already_decided"; status: ActionStatus | null }
  /** Staff declined it after the customer's confirm, with their reason. */
  | { kind: "rejected"; reason: string | null }
  | {
      kind: /** Confirmed; staff approval is next. Not final: the card follows it until decided. */
        | "awaiting_approval"
        /** Expired while it waited for staff approval. */
        | "approval_expired"
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
  if (decision.kind === "executed") return { kind: "executed", note: decision.note };
  return decision;
}

/** The card's outcome from the stored status after a reload (null while pending). */
export function outcomeFromStatus(
  status: ActionStatus,
  note: ExecutedNote,
  action: Pick<PendingAction, "rejectReason" | "confirmedAt"> = {},
): CardOutcome | null {
  if (status === "pending") return null;
  if (status === "executed") return { kind: "executed", note };
  if (status === "rejected") return { kind: "rejected", reason: action.rejectReason ?? null };
  if (status === "expired" && action.confirmedAt) return { kind: "approval_expired" };
  return { kind: status };
}

export type OutcomeView = { tone: "success" | "neutral" | "warning"; text: string };

/** The conversation's texts in one language: the chat's, which the card follows. */
export type ConversationText = { locale: Locale; messages: ConversationMessages };

/**
 * The card's final line. The status of an action decided elsewhere arrives as text from the
 * server; anything but a known status is worded as unknown (never a lookup by arbitrary key).
 */
export function describeOutcome(
  outcome: CardOutcome,
  { locale, messages }: ConversationText,
): OutcomeView {
  const t = createTranslator({ locale, messages, namespace: "conversation.card.outcome" });
  const a = createTranslator({ locale, messages, namespace: "conversation.approval" });
  switch (outcome.kind) {
    case "awaiting_approval":
      return { tone: "neutral", text: a("awaiting") };
    case "rejected":
      return { tone: "warning", text: a("rejected", { reason: outcome.reason ?? "" }) };
    case "approval_expired":
      return { tone: "warning", text: a("expiredWaiting") };
    case "executed":
      return outcome.note ?? { tone: "success", text: t("confirmed") };
    case "already_decided": {
      const known = ACTION_STATUSES.find((s) => s === outcome.status);
      return { tone: "neutral", text: t("alreadyDecided", { status: known ?? "unknown" }) };
    }
    case "cancelled":
      return { tone: "neutral", text: t("cancelled") };
    case "expired":
      return { tone: "warning", text: t("expired") };
    case "stale":
      return { tone: "warning", text: t("stale") };
    case "superseded":
      return { tone: "warning", text: t("superseded") };
    case "failed":
      return { tone: "warning", text: t("failed") };
    case "executing":
      return { tone: "neutral", text: t("executing") };
    case "not_found":
      return { tone: "warning", text: t("notFound") };
    case "unreadable":
      return { tone: "warning", text: t("unreadable") };
  }
}
