/**
 * change_delivery_address's rows for the offline model (lib/tools/offline-types.ts): what
 * customers say, how the new address is read from a message, and the replies.
 *
 * The address follows "to" / "на" / ":" after the word address, as comma-separated parts: name,
 * street and number, an optional second line, "postal code city", country (a two-letter code or
 * the country's name). Anything less is not guessed at: the model asks for the whole address.
 */
import type { Locale as Lang } from "@/db/constants";
import {
  addressLine,
  isShippingCountry,
  NEW_ADDRESS,
  type NewAddress,
  STORED_ADDRESS,
} from "@/lib/orders/address";
import { alternatives } from "@/lib/text/format";
import { re } from "@/lib/text/regex";
import type { OfflineMessage, OfflineWriteReplies, OfflineWriteRows } from "../offline-types";
import { countryCode, countryTo, shippingCountries } from "./countries";

/**
 * Where the address starts: after "address ... to", "адрес ... на", or a colon after either; after
 * "the new address is" / "адрес теперь"; or after the last "to" / "на" before at least two
 * comma-separated parts ("ship 3004 to 12 Rue de Rivoli, 75001 Paris, France"; "it needs to go
 * to Damrak 1, ..." starts at the second "to", not at "to go").
 */
const ADDRESS_START = re(
  String.raw`\b(address|adress|адрес\p{L}*)\b[^,:]{0,40}?(\bto\b\s*:?|\bна\b\s*:?|:)\s*|\b(address|adress|адрес\p{L}*)\s+(is|will be|should be|теперь|будет)\b\s*:?\s*|\b(по адресу|to the address|at the address)\b\s*:?\s*|\b(to|на)\s+(?=[^,]+,[^,]+,)(?![^,]*\b(to|на)\s)`,
);
const POSTAL_CITY = /^(\d{2}-\d{3}|\d{4} ?[A-Za-z]{2}|\d{4,6})\s+(\p{L}[\p{L} .'-]*)$/u;

/**
 * What people put before an address they send on its own ("Sorry, it's ...", "Ok: ...", "Вот: ...")
 * and after its country ("..., Germany instead", "..., DE. Thanks!"): not part of the address.
 */
const LEAD = re(
  String.raw`^\s*((sorry|oops|ok|okay|yes|yeah|sure|well|so|извините|простите|ой|да|ок|хорошо|итак)\s*[,.!:;—–-]\s*)*((it's|it is|its|that's|that is|this is|here it is|the new address is|the new one is|new address is|это|вот)\b\s*:?\s*)?`,
);
const TAIL = re(
  String.raw`(\s*[.!]?\s+(instead|please|pls|plz|thanks|thank you|asap|now|then|пожалуйста|спасибо|тогда))+[.!?]*$`,
);

/** Comma-separated parts of an address, trailing punctuation and courtesy words dropped. */
const partsOf = (text: string) => {
  const parts = text
    .replace(LEAD, "")
    .split(/[,;\n]+/)
    .map((p) => p.trim().replace(/[.!?]+$/, ""))
    .filter(Boolean);
  const last = parts.at(-1);
  if (last) parts[parts.length - 1] = last.replace(TAIL, "").replace(/[.!?]+$/, "");
  return parts;
};

/**
 * The address a text spells out, or null when a part is missing: street and number, an optional
 * second line, "postal code city", country, with the recipient's name in front or not (a first
 * part with no digit in it, before a street, is the name; "Torstraße 1, Hinterhaus" is a street
 * and its second line). Without a name the recipient stays the order's current one.
 */
export function parseAddress(text: string): NewAddress | null {
  const parts = partsOf(text);
  if (parts.length < 3) return null;
  const code = countryCode(parts.at(-1)!);
  if (!code) return null;
  const postal = parts.at(-2)!.match(POSTAL_CITY);
  if (!postal) return null;
  const lines = parts.slice(0, -2);
  const named = lines.length >= 2 && !/\d/.test(lines[0]!);
  const [line1, ...rest] = named ? lines.slice(1) : lines;
  if (!line1 || rest.length > 1) return null;
  const parsed = NEW_ADDRESS.safeParse({
    name: named ? lines[0] : null,
    line1,
    line2: rest[0] ?? null,
    // Stryker disable next-line MethodExpression: NEW_ADDRESS upper-cases the postal code itself
    postalCode: postal[1]!.toUpperCase(),
    // Stryker disable next-line MethodExpression: NEW_ADDRESS trims the city itself (freeText)
    city: postal[2]!.trim(),
    country: code,
  });
  return parsed.success ? parsed.data : null;
}

/** The message split at the address: the part before it (where the order number is) and it. */
function split(text: string): { head: string } & ReturnType<typeof read> {
  const m = ADDRESS_START.exec(text);
  if (m) {
    const rest = text.slice(m.index + m[0].length);
    return { head: text.slice(0, m.index + m[0].length), ...read(rest) };
  }
  // A message that is only an address (answering "what is the new delivery address?"). Not
  // one that only asks (its order number is no street): then nothing of an address was given.
  const whole = read(text);
  // Stryker disable next-line StringLiteral: the head is only searched for order numbers; any text without digits has none
  return whole.address
    ? { head: "", ...whole }
    : { head: text, ...whole, missing: partsOf(text).length >= 2 ? whole.missing : [] };
}

/** The address in a text, and the country it ends with even when the rest does not parse. */
function read(text: string): {
  address: NewAddress | null;
  country: string | null;
  missing: AddressPart[];
} {
  const parts = partsOf(text);
  const last = parts.length >= 2 ? countryCode(parts.at(-1)!) : null;
  return { address: parseAddress(text), country: last, missing: missingParts(parts) };
}

/** The parts of an address the question can name as missing (the recipient's name is optional). */
type AddressPart = "street" | "postalCity" | "country";

/**
 * Which required parts a text that is partly an address lacks, so the question says what is
 * missing ("the country") instead of asking for everything. None found at all: not an address
 * yet, and the whole of it is asked for (an empty list).
 */
function missingParts(parts: string[]): AddressPart[] {
  const country = parts.length >= 1 && countryCode(parts.at(-1)!) !== null;
  const postalCity = parts.some((p) => POSTAL_CITY.test(p));
  const street = parts.some((p) => /\d/.test(p) && /\p{L}/u.test(p) && !POSTAL_CITY.test(p));
  // A lone word ("NY", "Germany") is not yet an address: ask for the whole of it.
  if (!street && !postalCity) return [];
  return (
    [
      ["street", street],
      ["postalCity", postalCity],
      ["country", country],
    ] as const
  ).flatMap(([part, found]) => (found ? [] : [part]));
}

/** The `missing` slot of an address that lacks some parts: "address" alone asks for all of it. */
const MISSING_SLOT = "address";
const slotOf = (missing: AddressPart[]) =>
  missing.length > 0 ? `${MISSING_SLOT}:${missing.join(",")}` : MISSING_SLOT;
const partsIn = (slot: string): AddressPart[] =>
  slot.startsWith(`${MISSING_SLOT}:`)
    ? (slot.slice(MISSING_SLOT.length + 1).split(",") as AddressPart[])
    : [];

const PART_NAMES: Record<Lang, Record<AddressPart, string>> = {
  en: {
    street: "the street and number",
    postalCity: "the postal code and city",
    country: "the country",
  },
  ru: { street: "улица и номер дома", postalCity: "индекс и город", country: "страна" },
};

const RESULT = (result: unknown) => {
  if (typeof result !== "object" || result === null) return null;
  const r = result as { changeId?: unknown; orderId?: unknown; to?: unknown };
  const to = STORED_ADDRESS.safeParse(r.to);
  return typeof r.changeId === "string" && typeof r.orderId === "string" && to.success
    ? { changeId: r.changeId, orderId: r.orderId, to: to.data }
    : null;
};

const en: OfflineWriteReplies = {
  askOrder:
    "Which order should get the new delivery address? Please send me its four-digit number.",
  askWhich: (ids) =>
    `Which order should get the new address: ${alternatives(ids, "en")}? I can change one at a time.`,
  askOrderForQuestion:
    "Which order do you mean? Send me its four-digit number and I'll check whether its delivery address can still be changed.",
  askMissing: (slot, id) => {
    const missing = partsIn(slot).map((p) => PART_NAMES.en[p]);
    return missing.length > 0
      ? `Could you send the new address for order ${id} again, in full? It is missing: ${missing.join("; ")}. Please write it as: street and number, postal code and city, country.`
      : `What is the new delivery address for order ${id}? Please send it as: street and number, postal code and city, country. Put the recipient's name first only if it changes.`;
  },
  notDoing: "All right, I won't change any address. Is there anything else I can help with?",
  possible: (o) => {
    switch (o.status) {
      case "processing":
        return `It hasn't shipped yet, so its delivery address can still be changed: tell me "change the delivery address of ${o.orderId} to" and the new address, and confirm on the card.`;
      case "shipped":
      case "in_transit":
        return "It has already shipped, so its delivery address can't be changed any more.";
      case "delivered":
        return "It has already been delivered, so its address can't be changed.";
      default:
        return "";
    }
  },
  proposed: (id) =>
    `I've prepared the new delivery address${id ? ` for order ${id}` : ""}. Please check the old and the new address on the card and press Confirm if they are right; nothing happens until you do.`,
  existing: (result) => {
    const r = RESULT(result);
    return r
      ? `Order ${r.orderId} is already going to ${addressLine(r.to)} (${r.changeId}), so there is nothing to change.`
      : null;
  },
  errors: {
    order_cancelled: (_, Order) => `${Order} is cancelled, so there is nothing to deliver.`,
    already_shipped: (_, Order) =>
      `${Order} has already shipped, so its delivery address can't be changed any more.`,
    already_delivered: (_, Order) =>
      `${Order} has already been delivered, so its address can't be changed.`,
    country_not_shipped: () =>
      `Sorry, we don't ship to that country. We deliver to ${shippingCountries("en")}.`,
    recipient_missing: (_, Order) =>
      `${Order} has no recipient on record yet: please send the new address with the recipient's name first.`,
    invalid_postal_code: () =>
      "That postal code doesn't look right for that country. Could you check it and send me the address again?",
    address_unchanged: (_, Order) => `${Order} is already going to that address.`,
  },
};

const ru: OfflineWriteReplies = {
  askOrder:
    "Для какого заказа сменить адрес доставки? Пришлите, пожалуйста, его четырёхзначный номер.",
  askWhich: (ids) =>
    `Для какого заказа сменить адрес: ${alternatives(ids, "ru")}? Я меняю по одному.`,
  askOrderForQuestion:
    "Какой заказ вы имеете в виду? Пришлите его четырёхзначный номер, и я проверю, можно ли ещё сменить адрес доставки.",
  askMissing: (slot, id) => {
    const missing = partsIn(slot).map((p) => PART_NAMES.ru[p]);
    return missing.length > 0
      ? `Пришлёте новый адрес для заказа ${id} ещё раз, целиком? В нём не хватает: ${missing.join("; ")}. Напишите его так: улица и дом, индекс и город, страна.`
      : `Какой новый адрес доставки для заказа ${id}? Пришлите его так: улица и дом, индекс и город, страна. Имя получателя укажите в начале, только если он меняется.`;
  },
  notDoing: "Хорошо, адрес менять не буду. Могу ли я помочь чем-то ещё?",
  possible: (o) => {
    switch (o.status) {
      case "processing":
        return `Он ещё не отправлен, поэтому адрес доставки можно сменить: напишите «смените адрес доставки заказа ${o.orderId} на» и новый адрес, затем подтвердите на карточке.`;
      case "shipped":
      case "in_transit":
        return "Он уже отправлен, поэтому сменить адрес доставки нельзя.";
      case "delivered":
        return "Он уже доставлен, поэтому сменить адрес нельзя.";
      default:
        return "";
    }
  },
  proposed: (id) =>
    `Я подготовил новый адрес доставки${id ? ` заказа ${id}` : ""}. Проверьте старый и новый адрес на карточке и нажмите «Подтвердить», если всё верно; до этого ничего не произойдёт.`,
  existing: (result) => {
    const r = RESULT(result);
    return r
      ? `Заказ ${r.orderId} уже доставляется по адресу ${addressLine(r.to)} (${r.changeId}), менять нечего.`
      : null;
  },
  errors: {
    order_cancelled: (_, Order) => `${Order} отменён, доставлять нечего.`,
    already_shipped: (_, Order) => `${Order} уже отправлен, поэтому сменить адрес доставки нельзя.`,
    already_delivered: (_, Order) => `${Order} уже доставлен, поэтому сменить адрес нельзя.`,
    country_not_shipped: () =>
      `Извините, в эту страну мы не доставляем. Мы доставляем в ${shippingCountries("ru")}.`,
    recipient_missing: (order) =>
      `Для ${order.replace(/^заказ/, "заказа")} ещё не указан получатель: пришлите, пожалуйста, новый адрес с именем получателя в начале.`,
    invalid_postal_code: () =>
      "Индекс не похож на индекс этой страны. Проверьте его, пожалуйста, и пришлите адрес ещё раз.",
    address_unchanged: (_, Order) => `${Order} уже доставляется по этому адресу.`,
  },
};

const CHANGE_EN = "(change|update|correct|edit|modify|fix|switch)";
const CHANGE_RU =
  "(измени|измените|изменить|поменяй|поменяйте|поменять|смени|смените|сменить|исправь|исправьте|исправить|обнови|обновите|обновить)";

export const offline: OfflineWriteRows = {
  lexicon: {
    // Typed as often as spelled: "chnage adress", "delivry", "адрс".
    stems: ["change", "address", "deliver", "shipping", "адрес", "смените", "поменяйте"],
    request: {
      en: [
        String.raw`\b${CHANGE_EN}\b.{0,40}\b(delivery |shipping )?address\b`,
        String.raw`\b(new|different) (delivery |shipping )?address\b`,
        String.raw`\b(send|ship|deliver)\b.{0,30}\bto (a |another |my )?(new |different |other )address\b`,
        // "Please ship order 3004 to 12 Rue de Rivoli, ...": a destination, not "ship it to me".
        String.raw`(^|\b(and|also|then|please|pls|kindly|can you|could you|would you|will you)\b )(send|ship|deliver|redirect)\b( it| this| order| my order| the order| the parcel)?( #?\d{4})?( instead)? to\b(?! (me|us|you|him|her)\b)`,
        // "my order 3004 needs to go to Damrak 1, ...": the parcel has to go somewhere else, and
        // a destination with a number in it follows (the cues read text without punctuation).
        String.raw`\b(needs?|has|have|must|should)( to)? (go|be (sent|shipped|delivered|redirected)) to\b(?=.{1,40}\d)`,
      ],
      ru: [
        String.raw`\b${CHANGE_RU}\b.{0,40}\bадрес\p{L}*`,
        String.raw`\bнов\p{L}* адрес\p{L}*`,
        String.raw`\b(отправ|достав)\p{L}*.{0,30}\bна (другой|новый) адрес`,
        String.raw`\b(отправьте|отправь|доставьте|доставь|перешлите|пришлите)\b.{0,30}\b(по адресу|на адрес)\b`,
        // "Доставьте заказ 3004 в Лондон: ...": a destination, as "ship order 3004 to ..." is.
        String.raw`(^|\b(и|тогда|также|пожалуйста)\b )(отправьте|отправь|доставьте|доставь|перешлите)\b( его| ее| заказ| мой заказ| посылку)?( #?\d{4})? (в|во)\b`,
        // "Тогда отправьте его лучше на Торштрассе 5, ...", "Заказ 3004 нужно доставить на ...":
        // "на" with a number soon after it is a destination ("на возврат" is not).
        String.raw`(^|\b(и|тогда|также|пожалуйста)\b )(отправьте|отправь|доставьте|доставь|перешлите)\b( его| ее| заказ| мой заказ| посылку)?( #?\d{4})?( лучше| теперь| вместо этого)? на\b(?=.{1,40}\d)`,
        String.raw`\b(нужно|надо|прошу|необходимо)\s+(его\s+|ее\s+)?(доставить|отправить|переслать|привезти)\b.{0,20}\bна\b(?=.{1,40}\d)`,
      ],
    },
    question: {
      en: [
        String.raw`\b(can|could|may)\s+(i|we)\b.{0,20}\b${CHANGE_EN}\b.{0,30}\baddress`,
        String.raw`\bis it (still )?(possible|too late|ok|okay)\b.{0,30}\baddress`,
        String.raw`\b(how|when|until when)\b.{0,30}\b${CHANGE_EN}\b.{0,30}\baddress`,
        String.raw`\b(if|suppose|what if)\s+(i|we)\b.{0,20}\b${CHANGE_EN}\b.{0,30}\baddress`,
        String.raw`\bwould\b.{0,30}\b${CHANGE_EN}\b.{0,30}\baddress`,
      ],
      ru: [
        String.raw`\b(можно|могу|может|можем|возможно|успею)\b.{0,30}\b(измен|помен|смен|исправ)\p{L}*.{0,30}\bадрес`,
        String.raw`\b(как|когда)\b.{0,30}\b(измен|помен|смен|исправ)\p{L}*.{0,30}\bадрес`,
        String.raw`\b(если|а если)\b.{0,20}\b(измен|помен|смен)\p{L}*.{0,30}\bадрес`,
        String.raw`\bадрес\p{L}*.{0,40}\b(ли|еще можно|не поздно)\b`,
      ],
    },
    negation: {
      en: [
        String.raw`\b(don't|dont|do not|never|no need to)\b.{0,15}\b${CHANGE_EN}\b.{0,30}\baddress`,
        String.raw`\b(not|don't|dont|do not)\b.{0,15}\b(want|going|need|planning)\b.{0,15}\b${CHANGE_EN}\b.{0,30}\baddress`,
      ],
      ru: [
        String.raw`\bне\s+(меняйте|меняй|изменяйте|изменяй|надо менять|нужно менять|хочу менять|собираюсь менять|надо|нужно|хочу)\b.{0,30}\bадрес`,
      ],
    },
  },
  orderPart: (m: OfflineMessage) => split(m.text).head,
  args: (m: OfflineMessage, request: OfflineMessage | null) => {
    const here = split(m.text);
    const before = request ? split(request.text) : null;
    // A country we don't ship to is refused by name, whatever else the address lacks.
    const country = here.country ?? (here.address ? null : (before?.country ?? null));
    if (country && !isShippingCountry(country)) {
      const to = countryTo(country, m.lang);
      return {
        refusal:
          m.lang === "ru"
            ? `Извините, не могу: в ${to} мы не доставляем. Мы доставляем в ${shippingCountries("ru")}.`
            : `Sorry, I can't: we don't ship to ${to}. We deliver to ${shippingCountries("en")}.`,
      };
    }
    const address = here.address ?? before?.address ?? null;
    if (address) return { args: { address } };
    // What this message (or the request before it) had of an address says what to ask for.
    const missing = here.missing.length > 0 ? here.missing : (before?.missing ?? []);
    return { missing: slotOf(missing) };
  },
  replies: { en, ru } satisfies Record<Lang, OfflineWriteReplies>,
};
