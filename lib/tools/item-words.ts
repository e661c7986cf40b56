/**
 * Which items and how many a customer's words name, for the offline model's rows of the tools
 * that act on lines (create_return_request, exchange_items): "both", "all of it", "just the
 * socks", "two of the three", «только шапку», «обе футболки». Pure functions of normalised text
 * (lib/tools/offline-types.ts: lower case, punctuation stripped, Russian in Cyrillic); the line a
 * phrase names is found by the server among the order's lines (./order-lines.ts), so Russian
 * nouns are given in the catalogue's words here.
 */
import type { ItemsChoice } from "./order-lines";

const NUMBER: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  один: 1,
  одна: 1,
  одну: 1,
  одно: 1,
  два: 2,
  две: 2,
  три: 3,
  четыре: 4,
  пять: 5,
};

/** Russian stems of the things customers name, in the words the store's names use. */
const RU_NOUNS: [RegExp, string][] = [
  [/^носк/u, "socks"],
  [/^футболк/u, "t-shirt"],
  [/^майк/u, "t-shirt"],
  [/^(кроссовк|ботинк|обув|туфл)/u, "shoes"],
  [/^шапк/u, "hat"],
  [/^(кофемашин|кофеварк)/u, "coffee machine"],
  [/^таблетк/u, "tablets"],
  [/^чашк/u, "cups"],
  [/^(вспенивател|капучинатор)/u, "milk frother"],
  [/^сковород/u, "pan"],
  [/^чайник/u, "teapot"],
  [/^(простын|постельн)/u, "bed sheets"],
];

const WHOLE_EN =
  /\b(both( of them)?|all of (it|them)|everything|all (the )?items|the whole order|whole thing|all of my order)\b/u;
const WHOLE_RU = /(^|\s)(оба|обе|всё|все|целиком|весь заказ|полностью)(\s|$)/u;

// Words that end an item's name in a sentence.
const STOP =
  "from|of|in|on|for|to|because|since|as|it|they|please|and|but|from order|order|size|a|an|that|which|please|—";
const EN_ITEM = new RegExp(
  String.raw`(?:\b(?:just|only)\s+(?:the|my)\s+|\b(?:return|send back|exchange|swap|change)\s+(?:(?:the|my)\s+|(?=(?:one|two|three|four|five|\d)\s)))(?:(one|two|three|four|five|\d)\s+(?:of\s+(?:the|my)\s+(?:(?:two|three|four|five|\d)(?:\s+|$))?)?)?((?:(?!(?:${STOP}|one|two|three|four|five)\b)[\p{L}-]+\s*){1,3})`,
  "u",
);
const EN_COUNT_OF =
  /\b(one|two|three|four|five|\d)\s+of\s+(?:the|my)\s+(?:(?:two|three|four|five|\d)\b)?/u;
const RU_ONLY = /(?:^|\s)только\s+(?:(\p{L}+)\s+)?(\p{L}+)/u;
const RU_COUNT =
  /(?:^|\s)(одну|один|одна|одно|два|две|три|четыре|пять|\d)\s+(?:из\s+\S+\s+)?(\p{L}+)/u;

const RU_VERB_OBJECT =
  /(?:^|\s)(?:вернуть|верните|сдать|обменять|обменяйте|поменять|поменяйте|замените)\s+(?:мою\s+|мои\s+|мой\s+)?(\p{L}+)/u;

const quantity = (w: string | undefined) =>
  w === undefined ? undefined : (NUMBER[w] ?? (/^\d$/.test(w) ? Number(w) : undefined));

function ruNoun(word: string): string | null {
  for (const [stem, en] of RU_NOUNS) if (stem.test(word)) return en;
  return null;
}

/**
 * The items a message names: "all" for the whole order, the named lines with their quantities,
 * or undefined when it names none (the tool's default: the whole order).
 */
export function readItems(canon: string, lang: "en" | "ru"): ItemsChoice {
  if (lang === "ru") {
    if (WHOLE_RU.test(canon)) return "all";
    const only = RU_ONLY.exec(canon);
    if (only) {
      const n = quantity(only[1]);
      const noun = ruNoun(only[2]!) ?? (only[1] ? ruNoun(only[1]) : null);
      if (noun) return [n === undefined ? { line: noun } : { line: noun, quantity: n }];
    }
    const counted = RU_COUNT.exec(canon);
    if (counted) {
      const noun = ruNoun(counted[2]!);
      const n = quantity(counted[1]);
      if (noun) return [{ line: noun, quantity: n }];
      return [{ quantity: n }];
    }
    // "Вернуть кофемашину": the verb's object is the item; a noun elsewhere ("возврат заказа
    // 7718, кофемашина не включается") is the complaint's, and the order is returned.
    const object = RU_VERB_OBJECT.exec(canon);
    const noun = object ? ruNoun(object[1]!) : null;
    return noun ? [{ line: noun }] : undefined;
  }
  if (WHOLE_EN.test(canon)) return "all";
  const m = EN_ITEM.exec(canon);
  const name = m?.[2]?.trim();
  if (m && name && !/^(it|them|this|that|order|item|items|one|return|refund)$/.test(name)) {
    const n = quantity(m[1]);
    return [n === undefined ? { line: name } : { line: name, quantity: n }];
  }
  const count = EN_COUNT_OF.exec(canon);
  if (count) return [{ quantity: quantity(count[1]) }];
  return undefined;
}
