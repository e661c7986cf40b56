/**
 * The chat chrome's wording per language (confirm card, composer note, typing indicator). Both
 * tables have the same type, so a key missing in one language is a type error. The language is
 * the one of the customer's latest message in this chat (lib/chat/language.ts).
 */
import type { UIMessage } from "ai";
import { conversationLanguage, type Lang } from "@/lib/chat/language";
import type { ActionStatus } from "./schemas";

export type { Lang };

export type CardText = {
  locale: string;
  expiresIn: string;
  expiresAt: (at: string, left: string) => string;
  remaining: (minutes: number) => string;
  confirm: string;
  confirming: string;
  cancel: string;
  cancelling: string;
  problemNetwork: string;
  problemServer: string;
  sessionExpired: string;
  signInAgain: string;
  toDecide: string;
  statusWords: Record<ActionStatus, string>;
  unknownStatus: string;
  confirmed: string;
  alreadyDecided: (status: string) => string;
  cancelled: string;
  expired: string;
  stale: string;
  superseded: string;
  failed: string;
  executing: string;
  notFound: string;
  unreadable: string;
  composerSignedOut: string;
  composerPending: string;
  typing: string;
};

export const en: CardText = {
  locale: "en-GB",
  expiresIn: "Expires in",
  expiresAt: (at, left) => `This offer expires at ${at}, in ${left}.`,
  remaining: (m) =>
    m < 1 ? "less than a minute" : m === 1 ? "about 1 minute" : `about ${m} minutes`,
  confirm: "Confirm",
  confirming: "Confirming…",
  cancel: "Cancel",
  cancelling: "Cancelling…",
  problemNetwork: "We could not reach the server. Nothing was decided; try again.",
  problemServer: "Something went wrong on our side. Nothing was decided; try again.",
  sessionExpired: "Your session has expired.",
  signInAgain: "Sign in again",
  toDecide: "to decide.",
  statusWords: {
    pending: "still pending",
    executing: "being processed",
    executed: "confirmed",
    cancelled: "cancelled",
    expired: "expired",
    superseded: "replaced by a newer request",
    stale: "no longer valid",
    failed: "failed",
  },
  unknownStatus: "unknown status",
  confirmed: "Confirmed.",
  alreadyDecided: (status) => `Already decided in another tab: ${status}.`,
  cancelled: "Cancelled. Nothing was created.",
  expired: "This offer expired. Nothing was created. Ask again if you still want it.",
  stale:
    "No longer valid: the order changed since this was proposed. Nothing was created. Ask again for a fresh proposal.",
  superseded: "No longer valid: a newer request or a new chat replaced it. Nothing was created.",
  failed: "Something went wrong and nothing was created. Please try again in a moment.",
  executing: "Being processed…",
  notFound: "This request no longer exists. Nothing was created.",
  unreadable: "We could not read the answer. Reload the page to see the current state.",
  composerSignedOut: "Your session has expired. Sign in again to send messages.",
  composerPending: "Confirm or cancel the request above before sending a new message.",
  typing: "Assistant is typing…",
};

export const ru: CardText = {
  locale: "ru-RU",
  expiresIn: "Истекает через",
  expiresAt: (at, left) => `Предложение действует до ${at}, осталось ${left}.`,
  remaining: (m) => (m < 1 ? "меньше минуты" : `около ${m} мин.`),
  confirm: "Подтвердить",
  confirming: "Подтверждаем…",
  cancel: "Отменить",
  cancelling: "Отменяем…",
  problemNetwork: "Не удалось связаться с сервером. Ничего не решено; попробуйте ещё раз.",
  problemServer: "У нас что-то пошло не так. Ничего не решено; попробуйте ещё раз.",
  sessionExpired: "Ваш сеанс истёк.",
  signInAgain: "Войдите снова",
  toDecide: ", чтобы принять решение.",
  statusWords: {
    pending: "ещё ожидает решения",
    executing: "обрабатывается",
    executed: "подтверждена",
    cancelled: "отменена",
    expired: "истекла",
    superseded: "заменена более новой заявкой",
    stale: "больше не действительна",
    failed: "не удалась",
  },
  unknownStatus: "статус неизвестен",
  confirmed: "Подтверждено.",
  alreadyDecided: (status) => `Уже решено в другой вкладке: ${status}.`,
  cancelled: "Отменено. Ничего не создано.",
  expired: "Срок предложения истёк. Ничего не создано. Напишите снова, если это ещё нужно.",
  stale:
    "Больше не действительно: заказ изменился после предложения. Ничего не создано. Попросите новое предложение.",
  superseded:
    "Больше не действительно: его заменила более новая заявка или новый чат. Ничего не создано.",
  failed: "Что-то пошло не так, ничего не создано. Попробуйте ещё раз чуть позже.",
  executing: "Обрабатывается…",
  notFound: "Этой заявки больше нет. Ничего не создано.",
  unreadable: "Не удалось прочитать ответ. Обновите страницу, чтобы увидеть текущее состояние.",
  composerSignedOut: "Ваш сеанс истёк. Войдите снова, чтобы отправлять сообщения.",
  composerPending: "Подтвердите или отмените заявку выше, прежде чем писать новое сообщение.",
  typing: "Ассистент печатает…",
};

const TABLES: Record<Lang, CardText> = { en, ru };

export function cardText(lang: Lang = "en"): CardText {
  return TABLES[lang];
}

/** The language of the customer's latest message with letters in this chat; "en" when there is none. */
export function chatLanguage(messages: Pick<UIMessage, "role" | "parts">[]): Lang {
  return conversationLanguage(
    messages
      .filter((m) => m.role === "user")
      .map((m) =>
        m.parts.map((p) => (p.type === "text" ? (p as { text: string }).text : "")).join(" "),
      ),
  );
}
