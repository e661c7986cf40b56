/**
 * create_return_request's rows for the offline model (lib/tools/offline-types.ts): what customers
 * say to ask for a return and to ask about one, and its conversation. A return is a thread, not
 * one message: the order and what is wrong come in any order over several messages, a complaint
 * alone ("7718 arrived broken") gets an offer and a "yes" to it is the request, a question about
 * returns is answered with the policy, and an unfinished request survives the summary's fold.
 * What is wrong (damaged, defective or another reason, and the customer's words) is read by the
 * model; the reasons are the tool's enum.
 */
import type { Locale as Lang } from "@/db/constants";
import { own } from "@/lib/own";
import { alternatives, day, money } from "@/lib/text/format";
import { readItems } from "../item-words";
import type {
  OfflineComplaint,
  OfflineThreadReplies,
  OfflineWriteReplies,
  OfflineWriteRows,
} from "../offline-types";

// The words for giving something back; the model's "just asking" and "asking about the policy"
// cues carry the same words (lib/ai/models/offline/lexicon-intents.ts).
const RETURN_EN = String.raw`(return|returns|returning|refund|refunds|send( \p{L}+){0,2} back|take( \p{L}+){0,2} back|money back|rma)`;
const RETURN_RU = String.raw`(возврат\p{L}*|вернуть|верните|вернул\p{L}*|сдать|возмест\p{L}*|деньги назад)`;

/** The result the tool returns when the order already has its return (read loosely). */
function existingReturn(result: unknown) {
  if (typeof result !== "object" || result === null) return null;
  const r = result as {
    requestId?: unknown;
    orderId?: unknown;
    createdAt?: unknown;
    refund?: { amount?: unknown; currency?: unknown; destination?: unknown } | null;
  };
  if (typeof r.requestId !== "string" || typeof r.orderId !== "string") return null;
  const refund =
    r.refund &&
    typeof r.refund.amount === "number" &&
    typeof r.refund.currency === "string" &&
    typeof r.refund.destination === "string"
      ? { amount: r.refund.amount, currency: r.refund.currency, destination: r.refund.destination }
      : null;
  return {
    requestId: r.requestId,
    orderId: r.orderId,
    createdAt: typeof r.createdAt === "string" ? r.createdAt : null,
    refund,
  };
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const REASON_EN: Record<OfflineComplaint["reason"], string> = {
  damaged: "damaged",
  defective: "defective",
  other: "another reason",
};
const REASON_RU: Record<OfflineComplaint["reason"], string> = {
  damaged: "товар повреждён",
  defective: "брак",
  other: "другая причина",
};

const en: OfflineWriteReplies = {
  askOrder: "Which order should the return be for? Please send me the four-digit order number.",
  askWhich: (ids) =>
    `Which order should I prepare the return for: ${alternatives(ids, "en")}? I can do one return at a time.`,
  askOrderForQuestion:
    "Which order do you mean? Send me its four-digit number and I'll check whether it can be returned.",
  askMissing: (_slot, id) =>
    `What is the reason for returning order ${id}: did it arrive damaged, is it defective, or is it something else?`,
  notDoing: "All right, I won't do anything. Is there anything else I can help with?",
  // Whether an order can still be returned is said with the policy's window (the model's order
  // sentence), so nothing is added here.
  possible: () => "",
  proposed: (id) =>
    `I've prepared a return request${id ? ` for order ${id}` : ""}. Please check the details on the card and press Confirm if they are right; nothing happens until you do.`,
  existing: (result) => {
    const r = existingReturn(result);
    if (!r) return null;
    const when = r.createdAt ? `, created on ${day(r.createdAt, "en")}` : "";
    const refund = r.refund
      ? ` The refund of ${money(r.refund.amount, r.refund.currency, "en")} goes to ${r.refund.destination}.`
      : "";
    return `Order ${r.orderId} already has a return request (${r.requestId}${when}), so I haven't created another one.${refund}`;
  },
  errors: {
    not_delivered: (order) =>
      `${cap(order)} hasn't been delivered yet, so a return can't be requested for it yet.`,
    order_cancelled: (order) => `${cap(order)} was cancelled, so there is nothing to return.`,
    return_window_passed: (order) =>
      `${cap(order)} was delivered too long ago: it is outside the return window, so I can't request a return for it. I'm sorry.`,
    which_items: (order) =>
      `${cap(order)} has several items: which would you like to return, and how many? For example "just the socks" or "both".`,
    item_unclear: (order) => `That could be more than one item of ${order}: which one exactly?`,
    item_not_in_order: (order) => `I can't find that item in ${order}. Which item do you mean?`,
    invalid_quantity: () =>
      "The number of items to return has to be a whole number, at least one. How many would you like to return?",
    quantity_above_bought: (order) =>
      `That is more than ${order} has of that item, so I can't return that many. How many would you like to return?`,
    quantity_above_remaining: (order) =>
      `Some of that item of ${order} were already returned or exchanged, so fewer are left to return. How many of the rest?`,
    already_returned: (order) => `That item of ${order} was already returned.`,
    already_exchanged: (order) =>
      `That item of ${order} was already exchanged, so it can't be returned as well.`,
    final_sale: () =>
      "That item was sold as final sale, so it can't be returned. The other items can be.",
  },
};

const ru: OfflineWriteReplies = {
  askOrder:
    "Для какого заказа оформить возврат? Пришлите, пожалуйста, четырёхзначный номер заказа.",
  askWhich: (ids) =>
    `Для какого заказа подготовить возврат: ${alternatives(ids, "ru")}? Я оформляю по одному возврату за раз.`,
  askOrderForQuestion:
    "Какой заказ вы имеете в виду? Пришлите его четырёхзначный номер, и я проверю, можно ли его вернуть.",
  askMissing: (_slot, id) =>
    `Какова причина возврата заказа ${id}: товар пришёл повреждённым, это брак или другая причина?`,
  notDoing: "Хорошо, ничего не делаю. Могу ли я помочь чем-то ещё?",
  possible: () => "",
  proposed: (id) =>
    `Я подготовил заявку на возврат${id ? ` заказа ${id}` : ""}. Проверьте данные на карточке и нажмите «Подтвердить», если всё верно; до этого ничего не произойдёт.`,
  existing: (result) => {
    const r = existingReturn(result);
    if (!r) return null;
    const when = r.createdAt ? ` от ${day(r.createdAt, "ru")}` : "";
    const refund = r.refund
      ? ` Возврат ${money(r.refund.amount, r.refund.currency, "ru")} поступит на ${r.refund.destination}.`
      : "";
    return `По заказу ${r.orderId} уже есть заявка на возврат (${r.requestId}${when}), поэтому новую я не создавал.${refund}`;
  },
  errors: {
    not_delivered: (order) =>
      `${cap(order)} ещё не доставлен, поэтому оформить возврат пока нельзя.`,
    order_cancelled: (order) => `${cap(order)} отменён, поэтому возвращать нечего.`,
    return_window_passed: (order) =>
      `${cap(order)} доставлен слишком давно: срок возврата истёк, поэтому оформить возврат нельзя. Сожалею.`,
    which_items: (order) =>
      `В заказе (${order}) несколько товаров: какие вы хотите вернуть и сколько? Например, «только носки» или «оба».`,
    item_unclear: (order) => `Под это подходит несколько товаров (${order}): какой именно?`,
    item_not_in_order: (order) =>
      `Я не нашёл такой товар (${order}). Какой товар вы имеете в виду?`,
    invalid_quantity: () =>
      "Количество товаров для возврата должно быть целым числом, не меньше одного. Сколько вы хотите вернуть?",
    quantity_above_bought: (order) =>
      `Это больше, чем этого товара в заказе (${order}), поэтому столько вернуть нельзя. Сколько вы хотите вернуть?`,
    quantity_above_remaining: (order) =>
      `Часть этого товара (${order}) уже возвращена или обменяна, поэтому для возврата осталось меньше. Сколько из оставшихся?`,
    already_returned: (order) => `Этот товар (${order}) уже возвращён.`,
    already_exchanged: (order) =>
      `Этот товар (${order}) уже обменян, поэтому вернуть его тоже нельзя.`,
    final_sale: () =>
      "Этот товар продан как финальная распродажа, поэтому вернуть его нельзя. Остальные товары — можно.",
  },
};

const threadEn: OfflineThreadReplies = {
  askOrder: (reason) =>
    reason
      ? "I can help with that. Which order is it? Please send me the four-digit order number."
      : en.askOrder,
  // Stryker disable next-line StringLiteral: askMissing has one slot to ask for and ignores its name
  askComplaint: (id) => en.askMissing("reason", id),
  askOrderOfItems: (id) =>
    `Order ${id} doesn't have that item. Which order is it from? Please send me its four-digit number.`,
  askOrderAndComplaint:
    "Which order should the return be for (its four-digit number), and what is wrong with the item?",
  offer: (id, reason) =>
    id
      ? `I'm sorry to hear that. Would you like me to prepare a return request for order ${id} (${own(REASON_EN, reason) ?? reason})? You'll confirm it before anything happens.`
      : "I'm sorry to hear that. If you'd like to return it, which order is it? Please send me the four-digit order number.",
  howToAsk: (id) =>
    id
      ? `If you'd like to return it, tell me the reason, and I'll prepare a request for order ${id} for you to confirm.`
      : "If you'd like to return something, tell me the order number and the reason, and I'll prepare a request for you to confirm.",
};

const threadRu: OfflineThreadReplies = {
  askOrder: (reason) =>
    reason
      ? "Помогу с этим. Какой это заказ? Пришлите, пожалуйста, четырёхзначный номер заказа."
      : ru.askOrder,
  // Stryker disable next-line StringLiteral: askMissing has one slot to ask for and ignores its name
  askComplaint: (id) => ru.askMissing("reason", id),
  askOrderOfItems: (id) =>
    `В заказе ${id} такого товара нет. Из какого он заказа? Пришлите, пожалуйста, его четырёхзначный номер.`,
  askOrderAndComplaint:
    "Для какого заказа оформить возврат (четырёхзначный номер) и что случилось с товаром?",
  offer: (id, reason) =>
    id
      ? `Очень жаль. Подготовить заявку на возврат заказа ${id} (${own(REASON_RU, reason) ?? reason})? Вы подтвердите её, прежде чем что-то произойдёт.`
      : "Очень жаль. Если хотите вернуть товар, подскажите, какой это заказ? Пришлите, пожалуйста, четырёхзначный номер заказа.",
  howToAsk: (id) =>
    id
      ? `Если хотите его вернуть, назовите причину, и я подготовлю заявку на возврат заказа ${id}, которую вы подтвердите.`
      : "Если хотите что-то вернуть, назовите номер заказа и причину, и я подготовлю заявку, которую вы подтвердите.",
};

export const offline: OfflineWriteRows = {
  lexicon: {
    request: {
      en: [
        String.raw`\b(create|file|open|submit|start|make|raise|initiate|process|register|lodge|arrange|log|set up|put in|issue)\b.{0,30}\b(return|refund|rma)\b`,
        String.raw`\b(i want|i wanna|i'd like|id like|i would like|i need|we want|we'd like|i wish|please|pls|plz|kindly|help me)\b.{0,20}\b${RETURN_EN}`,
        String.raw`\b(return|refund)\b.{0,30}\b(please|pls|plz|asap)\b`,
        String.raw`\b(i'm|i am|im|we are|we're)\b.{0,10}\b(returning|sending it back)\b`,
        String.raw`\b(want|need|would like|demand)\b.{0,10}\b(my money back|a refund|refund)\b`,
        String.raw`^(new )?(return|refund)\b`,
        `^(need|want|wanna|gotta) (to )?${RETURN_EN}`,
      ],
      ru: [
        String.raw`\b(оформ|офрм|созда|сдела|откро|откры|завед|завест|зарегистрир|пода|запуст|инициир)\p{L}*\b.{0,30}\b(возврат|заявк|рекламаци)\p{L}*`,
        String.raw`\b(хочу|хотел\p{L}*|хотим|нужно|нужен|надо|прошу|желаю|требую|мне бы)\b.{0,25}\b${RETURN_RU}`,
        String.raw`\b(верните|возвратите|примите обратно|заберите)\b`,
        String.raw`^(возврат|заявк\p{L}* на возврат)\b`,
      ],
    },
    question: {
      en: [
        String.raw`\b(can|could|may)\s+(i|we)\b.{0,25}\b${RETURN_EN}`,
        String.raw`\bis it (possible|ok|okay|too late)\b.{0,25}\b${RETURN_EN}`,
        String.raw`\b(is there a way|any way|is there any way)\b.{0,25}\b${RETURN_EN}`,
        String.raw`\b(do|will|would|can|could) (i|we) get\b.{0,20}\b(money back|refund|refunded)\b`,
        String.raw`\bif (i|we) (return|send)\b`,
        String.raw`\b${RETURN_EN}\s*(policy|policies|terms|conditions|rules|window|period|deadline|options?)\b`,
        String.raw`\b(how|when|what|until when|how long|how many days|what if)\b.{0,30}\b${RETURN_EN}`,
        String.raw`\b(returnable|non returnable|refundable|eligible for (a )?(return|refund))\b`,
        String.raw`\b(be|get|been) (returned|refunded|sent back)\b`,
        String.raw`\b(do|does) you\s+(accept|take|allow|do)\s+returns\b`,
        String.raw`\bam i (able|allowed|eligible)\b.{0,20}\b${RETURN_EN}`,
        String.raw`\b(know|wondering|wonder|curious|tell me)\b.{0,20}\b(if|whether|how|about)\b.{0,30}\b${RETURN_EN}`,
        String.raw`\b(what|which) (items?|things?|products?)\b.{0,30}\b(returned|return)\b`,
        String.raw`\b${RETURN_EN}\b.{0,40}\bhow (do|would|can|could|should) (i|we)\b`,
      ],
      ru: [
        String.raw`\b(можно|могу|может|можем|возможно)\b.{0,25}\b${RETURN_RU}`,
        String.raw`\b(услови|правил|срок|политик|порядок|причин)\p{L}*\b.{0,20}\bвозврат\p{L}*`,
        String.raw`\bвозврат\p{L}*\b.{0,20}\b(услови|правил|срок|политик|порядок)\p{L}*`,
        String.raw`\b(как|когда|до какого|сколько|что если)\b.{0,30}\b${RETURN_RU}`,
        String.raw`\b(подлежит|подлежат|принимаете|принимают)\b.{0,20}\bвозврат\p{L}*`,
        String.raw`\b(какие|что) (товары|вещи)\b.{0,30}\b${RETURN_RU}`,
        String.raw`\b(интересует|подскажите|расскажите)\b.{0,30}\b${RETURN_RU}`,
        String.raw`\b(деньги|средства|оплата)\b.{0,20}\b(вернут|возвращ|придут|поступ)\p{L}*`,
        String.raw`\b${RETURN_RU}.{0,40}\bкак (это )?(сделать|быть|оформить)\b`,
      ],
    },
    // "I don't want to return it" is the model's "not requesting", which holds for every tool.
    negation: { en: [], ru: [] },
  },
  thread: {
    // Which items, from the newest message that names any ("just the socks", "both"); none
    // named is the whole order, as the tool's default.
    args: ({ reason, comment }, said) => {
      const items = said.map((m) => readItems(m.canon, m.lang)).find((i) => i !== undefined);
      return items === undefined ? { reason, comment } : { items, reason, comment };
    },
    lookups: ["policy"],
    replies: { en: threadEn, ru: threadRu } satisfies Record<Lang, OfflineThreadReplies>,
  },
  replies: { en, ru } satisfies Record<Lang, OfflineWriteReplies>,
};
