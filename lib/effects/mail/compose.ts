/**
 * Which mail the customer gets, and its payload: a snapshot of the address, the language and the
 * facts, taken inside the transaction that stores the mail's effect (the confirm's, or the one
 * that records a refund's outcome). Nothing here sends anything; the relay does, later.
 *
 * Language: the chat's that confirmed (its customer's latest message with letters), else the
 * account's choice, else English.
 */
import "server-only";
import { z } from "zod";
import type { ActionRow } from "@/db/queries/actions";
import { lastUserMessage } from "@/db/queries/chats";
import type { EffectRow } from "@/db/queries/effects";
import { refundSubjectOf } from "@/db/queries/return-receipts";
import { getStoreOperationByOperationId } from "@/db/queries/store-operations";
import { getUserContact } from "@/db/queries/users";
import { detectLanguage, type Locale as Lang } from "@/lib/text/language";
import {
  type EffectRequest,
  MAIL_PAYLOAD,
  type MailKind,
  REFUND_PAYLOAD,
  STORE_RECEIVE_PAYLOAD,
} from "../kinds";

/** The language of the chat's latest customer message with letters; null when it has none. */
async function chatLanguage(chatId: string | null): Promise<Lang | null> {
  if (!chatId) return null;
  const last = await lastUserMessage({ chatId });
  // Stryker disable next-line ArrayDeclaration: without a message, any element here is not a part with text, so the text stays empty either way
  const parts = Array.isArray(last?.parts) ? (last.parts as unknown[]) : [];
  const text = parts
    .map((p) =>
      typeof p === "object" && p !== null && "text" in p && typeof p.text === "string"
        ? p.text
        : "",
    )
    .join(" ");
  return detectLanguage(text);
}

type Facts = { orderId: string; reference: string; amount: number; currency: string };

/** The mail effect for this customer, or none when the account is gone or has no address. */
async function mailFor(
  kind: MailKind,
  { userId, chatId }: { userId: string; chatId: string | null },
  facts: Facts,
): Promise<EffectRequest[]> {
  const contact = await getUserContact({ userId });
  const to = MAIL_PAYLOAD.shape.to.safeParse(contact?.email);
  if (!contact || !to.success) return [];
  const locale = (await chatLanguage(chatId)) ?? contact.locale ?? "en";
  return [{ kind, payload: { to: to.data, locale, ...facts } }];
}

/** What the result of a write that names a `confirmationMail` says (returns and cancellations do). */
const CONFIRMED = z.object({
  orderId: z.string(),
  createdNow: z.boolean(),
  requestId: z.string().optional(),
  cancellationId: z.string().optional(),
  refund: z.object({ amount: z.number().int(), currency: z.string().length(3) }),
});

/**
 * The mail a confirm sends, of the kind its tool names (`confirmationMail`): only for a write that
 * happened now (not for a request that already existed), and only from the confirm, so a
 * declined, expired or superseded proposal never mails.
 */
export async function mailAfterConfirm({
  kind,
  userId,
  chatId,
  result,
}: {
  kind: MailKind | undefined;
  userId: string;
  chatId: string | null;
  result: unknown;
}): Promise<EffectRequest[]> {
  const r = CONFIRMED.safeParse(result);
  if (!kind || !r.success || !r.data.createdNow) return [];
  return mailFor(
    kind,
    { userId, chatId },
    {
      orderId: r.data.orderId,
      reference: r.data.requestId ?? r.data.cancellationId ?? r.data.orderId,
      amount: r.data.refund.amount,
      currency: r.data.refund.currency,
    },
  );
}

/** What was refunded, by the kind of effect that refunded it (ours, or the store's). */
async function refundFacts(
  effect: EffectRow,
): Promise<{ orderId: string; amount: number; currency: string } | null> {
  switch (effect.kind) {
    case "payment.refund": {
      const p = REFUND_PAYLOAD.safeParse(effect.payload);
      return p.success ? p.data : null;
    }
    case "store.receive_return": {
      const p = STORE_RECEIVE_PAYLOAD.safeParse(effect.payload);
      return p.success ? p.data : null;
    }
    case "store.cancel_order": {
      // Medusa's cancel refunds what it captured: the amount the plan showed the customer.
      const op = await getStoreOperationByOperationId({ operationId: effect.actionId });
      return op && op.refundAmountMinor > 0
        ? { orderId: op.orderId, amount: op.refundAmountMinor, currency: op.refundCurrency }
        : null;
    }
    // Stryker disable next-line ConditionalExpression: without the default clause the switch falls out and the function returns undefined, which the caller treats as null
    default:
      return null;
  }
}

/**
 * The mail when a refund ended: succeeded or failed, ours at the payment provider or the store's
 * (a received store return's refund, a store cancel that refunds the captured payment).
 */
export async function mailAfterRefund({
  effect,
  action,
  outcome,
}: {
  effect: EffectRow;
  action: ActionRow | null;
  outcome: "succeeded" | "failed";
}): Promise<EffectRequest[]> {
  const refund = await refundFacts(effect);
  if (!refund) return [];
  // The refund's business record, by its operation id (the action's id): a return or a
  // cancellation. Its customer is the one to tell, also when no chat action made it.
  const subject = await refundSubjectOf({ operationId: effect.actionId });
  const userId = subject?.userId ?? action?.userId;
  if (!userId) return [];
  return mailFor(
    outcome === "succeeded" ? "mail.refund_succeeded" : "mail.refund_failed",
    { userId, chatId: action?.chatId ?? null },
    {
      orderId: refund.orderId,
      reference: subject?.reference ?? refund.orderId,
      amount: refund.amount,
      currency: refund.currency,
    },
  );
}
