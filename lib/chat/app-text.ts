/**
 * Sentences the app (not the model) writes into the conversation: the confirmation request for
 * a proposed action, the outcome of a decision, and the tool-loop overrun. Both languages.
 */
import type { PendingActionDto } from "@/lib/actions/dto";
import { formatMoney } from "@/lib/format/money";
import { own } from "@/lib/own";
import type { Lang } from "./language";
import type { ActionOutcome } from "./types";

const REASON: Record<Lang, Record<string, string>> = {
  en: { damaged: "damaged", defective: "defective", other: "other" },
  ru: { damaged: "повреждён", defective: "брак", other: "другое" },
};

export function proposalText(action: PendingActionDto, lang: Lang): string {
  const { orderId, reason } = action.arguments;
  const refund = action.plan.refund;
  const money = formatMoney(refund.amount, refund.currency, lang === "ru" ? "ru-RU" : "en-GB");
  const r = own(REASON[lang], reason) ?? reason;
  return lang === "ru"
    ? `Я подготовил заявку на возврат по заказу ${orderId} (причина: ${r}). Возврат ${money} на ${refund.destination}. Пока ничего не сделано: проверьте детали и нажмите «Подтвердить» или «Отменить».`
    : `I've prepared a return request for order ${orderId} (reason: ${r}). The refund would be ${money} to ${refund.destination}. Nothing has happened yet: please check the details and press Confirm or Cancel.`;
}

const OUTCOME: Record<Lang, Record<ActionOutcome["status"], string>> = {
  en: {
    executed: "Return request {id} for order {order} has been created.",
    cancelled: "You cancelled the return request for order {order}. Nothing was created.",
    expired: "The offer for order {order} expired before it was confirmed. Nothing was created.",
    stale:
      "Order {order} changed after the offer was made, so nothing was created. Ask again for a fresh offer.",
    superseded:
      "The offer for order {order} was replaced by a newer one. Nothing was created from it.",
    failed:
      "Something went wrong while creating the return for order {order}. Nothing was created; please try again.",
  },
  ru: {
    executed: "Заявка на возврат {id} по заказу {order} создана.",
    cancelled: "Вы отменили заявку на возврат по заказу {order}. Ничего не создано.",
    expired: "Срок подтверждения по заказу {order} истёк. Ничего не создано.",
    stale:
      "Заказ {order} изменился после предложения, поэтому ничего не создано. Попросите ещё раз.",
    superseded: "Предложение по заказу {order} заменено более новым. По нему ничего не создано.",
    failed:
      "При создании возврата по заказу {order} произошла ошибка. Ничего не создано, попробуйте ещё раз.",
  },
};

const ALREADY: Record<Lang, string> = {
  en: "Order {order} already has return request {id}; nothing new was created.",
  ru: "По заказу {order} уже есть заявка на возврат {id}; новая не создана.",
};

export function outcomeText(outcome: ActionOutcome, orderId: string, lang: Lang): string {
  const id = outcome.result?.requestId ?? "";
  const template =
    outcome.status === "executed" && outcome.result && !outcome.result.createdNow
      ? ALREADY[lang]
      : OUTCOME[lang][outcome.status];
  return template.replaceAll("{order}", orderId).replaceAll("{id}", id);
}

export function overrunText(lang: Lang): string {
  return lang === "ru"
    ? "Не получилось довести запрос до конца. Пожалуйста, сформулируйте его иначе или попробуйте ещё раз."
    : "I couldn't finish that request. Please rephrase it or try again.";
}

export function modelErrorText(lang: Lang): string {
  return lang === "ru"
    ? "Ассистент сейчас недоступен. Ваше сообщение не сохранено, попробуйте ещё раз."
    : "The assistant is unavailable right now. Your message was not saved; please try again.";
}
