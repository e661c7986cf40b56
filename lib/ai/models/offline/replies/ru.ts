import { own } from "@/lib/own";
import { alternatives, day, items, plusDays } from "@/lib/text/format";
import type { OrderFacts } from "../facts";
import type { Replies } from "./types";

const REASON_WORD: Record<string, string> = {
  damaged: "повреждение",
  defective: "брак",
  other: "другая причина",
};

function statusSentence(o: OrderFacts): string {
  const what = o.items.length ? ` (${items(o.items)})` : "";
  const eta = o.estimatedDeliveryAt
    ? `, ожидаемая дата доставки — ${day(o.estimatedDeliveryAt, "ru")}`
    : "";
  const byStatus: Record<string, string> = {
    processing: `собирается${eta}.`,
    shipped: `отправлен${o.shippedAt ? ` ${day(o.shippedAt, "ru")}` : ""}${eta}.`,
    in_transit: `в пути${o.shippedAt ? ` (отправлен ${day(o.shippedAt, "ru")})` : ""}${eta}.`,
    delivered: `доставлен${o.deliveredAt ? ` ${day(o.deliveredAt, "ru")}` : ""}.`,
    cancelled: "отменён.",
  };
  return `Заказ ${o.orderId}${what} ${own(byStatus, o.status) ?? `имеет статус «${o.status}».`}`;
}

export const ru: Replies = {
  greeting: "Здравствуйте! Я могу проверить ваши заказы и помочь с возвратом. Чем могу помочь?",
  thanks: "Пожалуйста! Могу ли я помочь чем-то ещё?",
  farewell: "До свидания, хорошего дня!",
  capabilities: (can) =>
    `Я могу ${can}. Всё, что меняет заказ, я сначала готовлю, а вы подтверждаете. Просто назовите номер заказа.`,
  fallback: (can) => `Не уверен, что понял вас. Я могу ${can}. Что вы хотите сделать?`,
  denied: "Хорошо, ничего не делаю. Могу ли я помочь чем-то ещё?",
  affirmedNothing: "Хорошо! Чем могу помочь: статус заказа или возврат?",

  forbidden:
    "Извините, я не могу этого сделать. Я помогаю только с вашими заказами: статус, условия возврата и заявки на возврат.",
  unsupported: (can) =>
    `Извините, в этом чате я не могу этого сделать. Я могу ${can}. Неподтверждённое предложение можно остановить кнопкой «Отменить» на его карточке.`,
  signInAtStore:
    "Ваши заказы я увижу, только когда вы войдёте в свой аккаунт: войдите, пожалуйста, на сайте магазина и откройте этот чат снова. А пока могу рассказать о правилах возврата. Заказывали без аккаунта? Нажмите «Подтвердить заказ» под чатом: по номеру заказа и адресу почты, с которым он оформлен, мы пришлём код.",
  visitorHowToReturn:
    "Чтобы вернуть товар, войдите в свой аккаунт на сайте магазина и откройте этот чат снова: тогда я подготовлю заявку на возврат, которую вы подтвердите.",
  noTools: "Извините, сейчас я не могу это проверить. Попробуйте, пожалуйста, чуть позже.",

  askOrderForStatus: "Какой заказ проверить? Пришлите, пожалуйста, его четырёхзначный номер.",
  malformedNumber: (digits) =>
    `Номер заказа состоит из четырёх цифр, а ${digits} на него не похож. Можете проверить номер?`,
  orderNamed: (id) => `заказ ${id}`,
  thatOrder: "этот заказ",

  order: (o) => {
    const ret = o.returnRequest
      ? ` По нему уже есть заявка на возврат (${o.returnRequest.requestId}).`
      : "";
    return `${statusSentence(o)}${ret}`;
  },
  orderReturnability: (o, windowDays) => {
    if (o.returnRequest) return "";
    if (o.status === "cancelled") return "Заказ отменён, поэтому возвращать нечего.";
    if (o.status !== "delivered" || !o.deliveredAt)
      return "Заказ ещё не доставлен, поэтому вернуть его пока нельзя.";
    if (!windowDays) return "";
    return `Возврат возможен в течение ${windowDays} дней после доставки, для этого заказа — до ${day(plusDays(o.deliveredAt, windowDays), "ru")}.`;
  },
  policy: (p) => {
    // The tool's prose is English; the Russian reply is built from its structured fields only.
    const reasons = p.acceptedReasons.length
      ? ` Причины: ${alternatives(
          p.acceptedReasons.map((r) => own(REASON_WORD, r) ?? r),
          "ru",
        )}.`
      : "";
    return (
      `Доставленный заказ можно вернуть в течение ${p.windowDays} дней после доставки.${reasons}` +
      " Полная сумма заказа возвращается на исходный способ оплаты." +
      ` Нельзя вернуть недоставленные и отменённые заказы, заказы, доставленные более ${p.windowDays} дней назад, и заказы, по которым уже есть заявка.`
    );
  },
  proposed: (id) =>
    `Я всё подготовил${id ? ` для заказа ${id}` : ""}. Проверьте данные на карточке и нажмите «Подтвердить», если всё верно; до этого ничего не произойдёт.`,
  businessError: (code, id) => {
    const order = id ? `заказ ${id}` : "этот заказ";
    const known: Record<string, string> = {
      order_not_found: `Я не нашёл ${order} в вашем аккаунте. Проверьте, пожалуйста, номер.`,
      store_unreachable: `Я не могу связаться с магазином прямо сейчас, поэтому не смог проверить ${order}. Попробуйте, пожалуйста, через несколько минут.`,
      invalid_arguments:
        "Извините, не получилось обработать запрос. Назовите, пожалуйста, ещё раз номер заказа и причину.",
      unknown_tool: "Извините, я не могу этого сделать.",
    };
    return own(known, code) ?? ru.toolFailed;
  },
  toolFailed:
    "Извините, у меня что-то пошло не так, и проверить не получилось. Попробуйте, пожалуйста, чуть позже.",
};
