/**
 * Sentences the app (not the model) writes into the conversation that belong to no tool: the
 * tool-loop overrun and the model failure, from the catalogue (messages/<lang>.json, `turn`) in
 * the conversation's language. A write tool's confirmation and outcome sentences are its own
 * (describe()). use-intl's core, not next-intl's root entry: this runs under the react-server
 * condition too (npm run eval), where that entry pulls in client hooks.
 */
import { createTranslator } from "use-intl/core";
import { messagesFor } from "@/lib/i18n/messages";
import type { Locale } from "@/lib/text/language";

export function overrunText(lang: Locale): string {
  const t = createTranslator({ locale: lang, messages: messagesFor(lang), namespace: "turn" });
  return t("overrun");
}

export function modelErrorText(lang: Locale): string {
  const t = createTranslator({ locale: lang, messages: messagesFor(lang), namespace: "turn" });
  return t("modelError");
}

/**
 * The chat's notes on the approval step, the same for every tool: waiting for our
 * team, declined by it (with its reason), or not decided in time.
 */
export function approvalNote(
  status: "awaiting_approval" | "rejected" | "expired",
  lang: Locale,
  reason: string | null,
): string {
  const t = createTranslator({ locale: lang, messages: messagesFor(lang), namespace: "approval" });
  if (status === "awaiting_approval") return t("note.awaiting");
  if (status === "rejected") return t("note.rejected", { reason: reason ?? "" });
  return t("note.expired");
}

/** The transcript's line when the customer edits a proposal on its card. */
export function revisionNote(lang: Locale, revision: number): string {
  const t = createTranslator({ locale: lang, messages: messagesFor(lang), namespace: "approval" });
  return t("note.revised", { revision });
}

/**
 * The app's message after the store refused a confirmed write because the order changed there,
 * with the fresh plan: a new card, the existing record, or why it can no longer be done (`code`,
 * the tool's refusal; unknown codes get the general sentence); in a chat a person has taken
 * over, no plan: the person looks at it with the customer.
 */
export function replanNote(
  lang: Locale,
  outcome: "proposal" | "existing" | "refused" | "handoff",
  values: { orderId: string; code?: string },
): string {
  const t = createTranslator({ locale: lang, messages: messagesFor(lang), namespace: "replan" });
  if (outcome === "handoff") return t("handoff", { orderId: values.orderId });
  if (outcome === "proposal") return t("proposal", { orderId: values.orderId });
  if (outcome === "existing") return t("existing", { orderId: values.orderId });
  return t("refused", { orderId: values.orderId, code: values.code ?? "other" });
}
