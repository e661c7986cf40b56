/**
 * cancel_order's rows for the offline model (lib/tools/offline-types.ts): what customers say, its
 * reasons, and its replies. Cancellation reasons are the tool's enum (`changed_mind` |
 * `ordered_by_mistake` | `found_cheaper` | `other`); a request without a recognised reason is
 * `other`: cancelling needs no justification, so the model never asks for one.
 */
import type { Locale as Lang } from "@/db/constants";
import { alternatives, money } from "@/lib/text/format";
import { re } from "@/lib/text/regex";
import type { OfflineMessage, OfflineWriteReplies, OfflineWriteRows } from "../offline-types";

export type CancelReason = "changed_mind" | "ordered_by_mistake" | "found_cheaper" | "other";

const CANCEL_REASON_CUES: [CancelReason, Record<Lang, string[]>][] = [
  [
    "ordered_by_mistake",
    {
      en: [
        String.raw`\b(by mistake|mistakenly|by accident|accidentally|ordered (it )?twice|duplicate order|wrong order|didn't mean to)\b`,
      ],
      ru: [String.raw`\b(по ошибке|ошибочно|случайно|дважды|не тот заказ)\b`],
    },
  ],
  [
    "found_cheaper",
    {
      en: [String.raw`\b(cheaper|better price|lower price|better deal)\b`],
      ru: [String.raw`\b(дешевле|выгоднее|по лучшей цене)\b`],
    },
  ],
  [
    "changed_mind",
    {
      en: [
        String.raw`\b(changed my mind|change of mind|(don't|do not|no longer) (need|want) (it|this|that)|not needed)\b`,
      ],
      ru: [String.raw`\b(передумал\p{L}*|не нужен|не нужна|не нужно|больше не нужн\p{L}*)\b`],
    },
  ],
];

const COMPILED = CANCEL_REASON_CUES.map(
  ([reason, byLang]) => [reason, [...byLang.en, ...byLang.ru].map((p) => re(p))] as const,
);

/** The reason a cancellation request gives, from its normalised text; `other` by default. */
export function cancelReason(canon: string): CancelReason {
  for (const [reason, patterns] of COMPILED) if (patterns.some((p) => p.test(canon))) return reason;
  return "other";
}

const CANCELLATION = (result: unknown) =>
  typeof result === "object" && result !== null && "cancellationId" in result && "orderId" in result
    ? (result as {
        cancellationId: string;
        orderId: string;
        refund?: { amount: number; currency: string; destination: string } | null;
      })
    : null;

const en: OfflineWriteReplies = {
  askOrder: "Which order should I cancel? Please send me its four-digit number.",
  askWhich: (ids) =>
    `Which order should I cancel: ${alternatives(ids, "en")}? I can do one at a time.`,
  askOrderForQuestion:
    "Which order do you mean? Send me its four-digit number and I'll check whether it can still be cancelled.",
  askMissing: (_slot, id) => `What should I do with order ${id}?`,
  notDoing: "All right, I won't cancel anything. Is there anything else I can help with?",
  possible: (o) => {
    switch (o.status) {
      case "processing":
        return `It hasn't shipped yet, so it can still be cancelled: just say "cancel order ${o.orderId}" and confirm on the card.`;
      case "shipped":
      case "in_transit":
        return "It has already shipped, so it can't be cancelled any more; once it's delivered you can ask for a return.";
      case "delivered":
        return "It has already been delivered, so it can't be cancelled, but you can ask me for a return instead.";
      case "cancelled":
        return "It is already cancelled.";
      default:
        return "";
    }
  },
  proposed: (id) =>
    `I've prepared the cancellation${id ? ` of order ${id}` : ""}. Please check the details on the card and press Confirm if they are right; nothing happens until you do.`,
  existing: (result) => {
    const c = CANCELLATION(result);
    if (!c) return null;
    const refund = c.refund
      ? ` The refund of ${money(c.refund.amount, c.refund.currency, "en")} goes to ${c.refund.destination}.`
      : "";
    return `Order ${c.orderId} is already cancelled (${c.cancellationId}), so there is nothing more to do.${refund}`;
  },
  errors: {
    already_cancelled: (_, Order) => `${Order} is already cancelled.`,
    already_shipped: (_, Order) =>
      `${Order} has already shipped, so it can't be cancelled any more. Once it's delivered, you can ask me for a return.`,
    already_delivered: (_, Order) =>
      `${Order} has already been delivered, so it can't be cancelled, but it can be returned: tell me the reason and I'll prepare a return request for you to confirm.`,
    already_delivered_not_returnable: (_, Order) =>
      `${Order} has already been delivered, so it can't be cancelled, and its return window has ended. I'm sorry.`,
  },
};

const ru: OfflineWriteReplies = {
  askOrder: "Какой заказ отменить? Пришлите, пожалуйста, его четырёхзначный номер.",
  askWhich: (ids) => `Какой заказ отменить: ${alternatives(ids, "ru")}? Я оформляю по одному.`,
  askOrderForQuestion:
    "Какой заказ вы имеете в виду? Пришлите его четырёхзначный номер, и я проверю, можно ли его ещё отменить.",
  askMissing: (_slot, id) => `Что сделать с заказом ${id}?`,
  notDoing: "Хорошо, ничего отменять не буду. Могу ли я помочь чем-то ещё?",
  possible: (o) => {
    switch (o.status) {
      case "processing":
        return `Он ещё не отправлен, поэтому его можно отменить: напишите «отмените заказ ${o.orderId}» и подтвердите на карточке.`;
      case "shipped":
      case "in_transit":
        return "Он уже отправлен, поэтому отменить его нельзя; после доставки можно оформить возврат.";
      case "delivered":
        return "Он уже доставлен, поэтому отменить его нельзя, но можно оформить возврат.";
      case "cancelled":
        return "Он уже отменён.";
      default:
        return "";
    }
  },
  proposed: (id) =>
    `Я подготовил отмену${id ? ` заказа ${id}` : ""}. Проверьте данные на карточке и нажмите «Подтвердить», если всё верно; до этого ничего не произойдёт.`,
  existing: (result) => {
    const c = CANCELLATION(result);
    if (!c) return null;
    const refund = c.refund
      ? ` Возврат ${money(c.refund.amount, c.refund.currency, "ru")} поступит на ${c.refund.destination}.`
      : "";
    return `Заказ ${c.orderId} уже отменён (${c.cancellationId}), больше ничего делать не нужно.${refund}`;
  },
  errors: {
    already_cancelled: (_, Order) => `${Order} уже отменён.`,
    already_shipped: (_, Order) =>
      `${Order} уже отправлен, поэтому отменить его нельзя. После доставки можно оформить возврат.`,
    already_delivered: (_, Order) =>
      `${Order} уже доставлен, поэтому отменить его нельзя, но можно вернуть: назовите причину, и я подготовлю заявку на возврат.`,
    already_delivered_not_returnable: (_, Order) =>
      `${Order} уже доставлен, поэтому отменить его нельзя, и срок возврата тоже истёк. Сожалею.`,
  },
};

export const offline: OfflineWriteRows = {
  lexicon: {
    request: {
      en: [
        String.raw`^(please |pls |kindly )?cancel\b`,
        String.raw`\b(please|pls|plz|kindly|want to|wanna|i'd like to|id like to|would like to|need to|have to|let's|lets|go ahead and)\b.{0,20}\bcancel\b`,
        String.raw`\bcancel\b.{0,25}\b(order|it|this|that|#?\d{4})\b.{0,20}(please|pls|plz|asap|now)?`,
        String.raw`\b(cancellation|cancel)\b.{0,15}\b(for|of)\b.{0,10}\b(order|#?\d{4})\b`,
        // Synonyms: "call off", "scrap", "void" an order.
        String.raw`\b(call|calling) (it |this |that |the order |my order |order #?\d{4} )?off\b`,
        String.raw`\b(call off|scrap|void|abort)\b.{0,20}\b(order|#?\d{4})\b`,
      ],
      ru: [
        String.raw`\b(отмени|отмените|отменить|отменяйте|аннулируйте|аннулировать)\b.{0,30}\b(заказ\p{L}*|его|ее|\d{4})`,
        String.raw`\b(хочу|хотел\p{L}*|хотим|нужно|надо|прошу|можете)\b.{0,20}\b(отменить|отмену|аннулировать)\b`,
        String.raw`\bотмен\p{L}* заказ\p{L}*`,
        String.raw`^(тогда |пожалуйста )*(отмени|отмените|отменяйте|аннулируйте)\b`,
      ],
    },
    question: {
      en: [
        String.raw`\b(can|could|may)\s+(i|we)\s+(still\s+)?(cancel|call off)\b`,
        String.raw`\bis it (still )?(possible|too late|ok|okay)\b.{0,25}\bcancel`,
        String.raw`\b(how|when|until when|how long)\b.{0,30}\bcancel`,
        String.raw`\b(if|suppose|what if)\s+(i|we)\b.{0,15}\bcancel`,
        String.raw`\bwould\b.{0,30}\bcancel`,
        String.raw`\b(cancellable|cancelable|can be cancell?ed|still be cancell?ed)\b`,
      ],
      ru: [
        String.raw`\b(можно|могу|может|можем|возможно|успею|успеваю)\b.{0,25}\bотмен\p{L}*`,
        String.raw`\bотмен\p{L}*.{0,40}\b(ли|еще можно|ещё можно|не поздно)\b`,
        String.raw`\b(как|когда|до какого)\b.{0,30}\bотмен\p{L}*`,
        String.raw`\b(если|а если)\s+(я|мы)\b.{0,15}\bотмен\p{L}*`,
      ],
    },
    negation: {
      en: [
        String.raw`\b(don't|dont|do not|never|no need to)\b.{0,10}\bcancel\b`,
        String.raw`\b(not|don't|dont|do not)\b.{0,15}\b(want|going|need|planning)\b.{0,15}\bcancel\b`,
      ],
      ru: [
        // Also without the soft sign: "ne nado otmenyat", typed in Latin letters, reads "отменят".
        String.raw`\bне\s+(надо |нужно |хочу |собираюсь )?отменя\p{L}*`,
      ],
    },
  },
  args: (m: OfflineMessage, request: OfflineMessage | null) => {
    const here = cancelReason(m.canon);
    const reason = here !== "other" || !request ? here : cancelReason(request.canon);
    return { args: { reason, comment: null } };
  },
  replies: { en, ru },
};
