/**
 * exchange_items' rows for the offline model (lib/tools/offline-types.ts): what customers say to
 * ask for another size ("exchange the shoes from 4703 for a size bigger", «обменяйте футболку из
 * 4704 на размер больше», "I ordered the wrong size, can you change it to S before it ships?"),
 * to ask about it and to say not to; which line and which size the words name; the replies.
 */
import type { Locale as Lang } from "@/db/constants";
import { readItems } from "../item-words";
import type {
  OfflineArgs,
  OfflineMessage,
  OfflineWriteReplies,
  OfflineWriteRows,
} from "../offline-types";

const SIZE_EN = String.raw`(xxs|xs|s|m|l|xl|xxl|\d{2})`;

/** The size wanted: "bigger"/"smaller", or a size's own value ("L", "43"); null when none. */
function readSize({ canon, lang }: OfflineMessage): string | null {
  if (lang === "ru") {
    if (/(на )?размер(ом)? (больше|побольше)|(^|\s)побольше(\s|$)|(^|\s)больше(\s|$)/u.test(canon))
      return "bigger";
    if (/(на )?размер(ом)? (меньше|поменьше)|(^|\s)поменьше(\s|$)|(^|\s)меньше(\s|$)/u.test(canon))
      return "smaller";
    const ru = /(?:размер|на)\s+(xxs|xs|s|m|l|xl|xxl|\d{2})(?:\s|$)/u.exec(canon);
    return ru ? ru[1]!.toUpperCase() : null;
  }
  if (
    /\b(a |one )?size (bigger|larger|up)\b|\b(bigger|larger) (size|one)\b|\bsize up\b/u.test(canon)
  )
    return "bigger";
  if (/\b(a |one )?size (smaller|down)\b|\bsmaller (size|one)\b|\bsize down\b/u.test(canon))
    return "smaller";
  const en = new RegExp(String.raw`\b(?:size|to|for|in an?|in)\s+${SIZE_EN}\b`, "u").exec(canon);
  return en ? en[1]!.toUpperCase() : null;
}

function args(m: OfflineMessage, request: OfflineMessage | null): OfflineArgs {
  const to = readSize(m) ?? (request ? readSize(request) : null);
  if (!to) return { missing: "to" };
  const items =
    readItems(m.canon, m.lang) ?? (request ? readItems(request.canon, request.lang) : undefined);
  const first = Array.isArray(items) ? items[0] : undefined;
  return {
    args: {
      to,
      ...(first?.line ? { line: first.line } : {}),
      ...(first?.quantity !== undefined ? { quantity: first.quantity } : {}),
    },
  };
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const en: OfflineWriteReplies = {
  askOrder: "Which order is the item from? Please send me the four-digit order number.",
  askWhich: (ids) =>
    `Which order should the exchange be for: ${ids.join(" or ")}? One at a time, please.`,
  askOrderForQuestion:
    "Which order do you mean? Send me its four-digit number and I'll check whether its items can be exchanged.",
  askMissing: (_slot, id) =>
    `Which size would you like instead, for the item of order ${id}? You can also say "a size bigger" or "a size smaller".`,
  notDoing: "All right, I won't change anything. Is there anything else I can help with?",
  possible: () => "",
  proposed: (id) =>
    `I've prepared the exchange${id ? ` for order ${id}` : ""}. Please check the details on the card and press Confirm if they are right; nothing happens until you do.`,
  existing: () => null,
  errors: {
    order_cancelled: (order) => `${cap(order)} was cancelled, so there is nothing to exchange.`,
    already_shipped: (order) =>
      `${cap(order)} is already on its way, so its size can't be changed now; once it is delivered, it can be exchanged.`,
    return_window_passed: (order) =>
      `${cap(order)} was delivered too long ago: it is outside the return window, so it can't be exchanged. I'm sorry.`,
    which_items: (order) =>
      `${cap(order)} has several items: which one would you like to exchange? Tell me its name, e.g. "the shoes".`,
    item_unclear: (order) => `That could be more than one item of ${order}: which one exactly?`,
    item_not_in_order: (order) => `I can't find that item in ${order}. Which item do you mean?`,
    invalid_quantity: () => "The number of items has to be a whole number, at least one.",
    quantity_above_bought: (order) => `That is more than ${order} has of that item.`,
    quantity_above_remaining: (order) =>
      `Some of that item of ${order} were already returned or exchanged, so fewer are left to exchange.`,
    already_exchanged: (order) => `That item of ${order} was already exchanged.`,
    already_returned: (order) => `That item of ${order} was already returned.`,
    final_sale: () => "That item was sold as final sale, so it can't be exchanged or returned.",
    not_exchangeable: () =>
      "That item comes in one version only: it can be returned, but not exchanged.",
    unknown_variant: () =>
      "That size doesn't exist for this item. Which size would you like? I can tell you what is in stock.",
    other_product: () => "An exchange keeps the same product, only in another size.",
    same_variant: () => "That is the size you already have. Which other size would you like?",
    out_of_stock: () => "Sorry, that size is out of stock right now. Would another size do?",
    dearer_variant: () =>
      "That size costs more than you paid, and I can never charge you in the chat, so I can't exchange it here. A same-price or cheaper size I can.",
    sold_out: () => "Sorry, that size has just sold out. Nothing was changed.",
  },
};

const ru: OfflineWriteReplies = {
  askOrder: "Из какого заказа этот товар? Пришлите, пожалуйста, четырёхзначный номер заказа.",
  askWhich: (ids) =>
    `Для какого заказа сделать обмен: ${ids.join(" или ")}? По одному, пожалуйста.`,
  askOrderForQuestion:
    "Какой заказ вы имеете в виду? Пришлите его четырёхзначный номер, и я проверю, можно ли обменять товар.",
  askMissing: (_slot, id) =>
    `На какой размер обменять товар из заказа ${id}? Можно сказать и «на размер больше» или «на размер меньше».`,
  notDoing: "Хорошо, ничего не меняю. Могу ли я помочь чем-то ещё?",
  possible: () => "",
  proposed: (id) =>
    `Я подготовил обмен${id ? ` по заказу ${id}` : ""}. Проверьте данные на карточке и нажмите «Подтвердить», если всё верно; до этого ничего не произойдёт.`,
  existing: () => null,
  errors: {
    order_cancelled: (order) => `${cap(order)} отменён, поэтому обменивать нечего.`,
    already_shipped: (order) =>
      `${cap(order)} уже в пути, поэтому размер сейчас не поменять; после доставки товар можно будет обменять.`,
    return_window_passed: (order) =>
      `${cap(order)} доставлен слишком давно: срок возврата истёк, поэтому обменять его нельзя. Сожалею.`,
    which_items: (order) =>
      `В заказе (${order}) несколько товаров: какой вы хотите обменять? Назовите его, например «кроссовки».`,
    item_unclear: (order) => `Под это подходит несколько товаров (${order}): какой именно?`,
    item_not_in_order: (order) =>
      `Я не нашёл такой товар (${order}). Какой товар вы имеете в виду?`,
    invalid_quantity: () => "Количество должно быть целым числом, не меньше одного.",
    quantity_above_bought: (order) => `Это больше, чем этого товара в заказе (${order}).`,
    quantity_above_remaining: (order) =>
      `Часть этого товара (${order}) уже возвращена или обменяна, поэтому для обмена осталось меньше.`,
    already_exchanged: (order) => `Этот товар (${order}) уже обменян.`,
    already_returned: (order) => `Этот товар (${order}) уже возвращён.`,
    final_sale: () =>
      "Этот товар продан как финальная распродажа: его нельзя ни обменять, ни вернуть.",
    not_exchangeable: () =>
      "Этот товар бывает только в одном варианте: его можно вернуть, но не обменять.",
    unknown_variant: () =>
      "Такого размера у этого товара нет. Какой размер вам нужен? Могу подсказать, какие есть в наличии.",
    other_product: () => "При обмене товар остаётся тем же, меняется только размер.",
    same_variant: () => "Это ваш текущий размер. На какой другой размер обменять?",
    out_of_stock: () => "К сожалению, этого размера сейчас нет в наличии. Подойдёт другой размер?",
    dearer_variant: () =>
      "Этот размер стоит дороже, чем вы заплатили, а в чате я никогда не списываю деньги, поэтому обменять на него здесь нельзя. На размер той же цены или дешевле — можно.",
    sold_out: () => "К сожалению, этот размер только что закончился. Ничего не изменилось.",
  },
};

// The words for an exchange; "a size bigger" alone is one too.
const EXCHANGE_EN = String.raw`(exchange|swap|change (it|them|the size|the \p{L}+)|different size|another size|other size|wrong size)`;
const EXCHANGE_RU = String.raw`(обмен\p{L}*|обменя\p{L}*|поменя\p{L}*|замен\p{L}*|другой размер|не тот размер|не подош[её]л размер)`;

export const offline: OfflineWriteRows = {
  lexicon: {
    stems: ["exchange", "bigger", "smaller"],
    request: {
      en: [
        String.raw`\b(please|pls|can you|could you|i want to|i'd like to|id like to|i would like to|i need to)\b.{0,20}\b${EXCHANGE_EN}\b`,
        String.raw`^(exchange|swap)\b`,
        String.raw`\b(exchange|swap|change)\b.{0,40}\b(size (bigger|smaller|up|down)|(bigger|smaller) (size|one)|(for|to) (an? )?(size )?(xxs|xs|s|m|l|xl|xxl|\d{2}))\b`,
        String.raw`\bwrong size\b.{0,40}\b(change|exchange|swap)\b`,
      ],
      ru: [
        String.raw`\b(обменяйте|поменяйте|замените)\b`,
        String.raw`\b(хочу|хотел\p{L}*|нужно|надо|прошу|можете)\b.{0,25}\b${EXCHANGE_RU}`,
        String.raw`\bна размер (больше|меньше)\b`,
      ],
    },
    question: {
      en: [
        String.raw`\b(can|could|may)\s+(i|we)\b.{0,20}\b(exchange|swap)\b`,
        String.raw`\bis it (possible|ok|okay)\b.{0,20}\b(exchange|swap)\b`,
        String.raw`\b(do|does) you\b.{0,10}\b(exchanges?|exchange)\b`,
        String.raw`\b(how|what)\b.{0,20}\bexchange\b`,
      ],
      ru: [
        String.raw`\b(можно|могу|возможно)\b.{0,10}\b(ли )?(обменять|поменять|обмен)\b`,
        String.raw`\b(как|какие)\b.{0,20}\bобмен\p{L}*`,
      ],
    },
    negation: {
      en: [
        String.raw`\b(don't|do not|dont|no need to|never mind)\b.{0,15}\b(exchange|swap|change)\b`,
      ],
      ru: [String.raw`\bне (надо|нужно)?\s*(обменивать|менять|обмен)\p{L}*`],
    },
  },
  args,
  replies: { en, ru } satisfies Record<Lang, OfflineWriteReplies>,
};
