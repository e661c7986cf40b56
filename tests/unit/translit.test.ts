/**
 * Russian typed in Latin letters: which texts are it, and how they read back into Cyrillic. The
 * language detector everyone asks (chat chrome, card, offline model, mail) answers Russian for it.
 *
 * Reproduce: npx vitest run tests/unit/translit.test.ts
 */
import { describe, expect, it } from "vitest";
import { detectLanguage } from "@/lib/text/language";
import { fromTranslit, isTranslitRussian } from "@/lib/text/translit";

const READS: [typed: string, cyrillic: string][] = [
  ["gde moy zakaz 3004?", "где мой заказ 3004?"],
  ["Otmenite zakaz 3004, pozhaluysta", "Отмените заказ 3004, пожалуйста"],
  // Informal spellings: h for х, j for й, c for ц, ' for ь.
  ["hochu vernut zakaz 7718", "хочу вернут заказ 7718"],
  ["moj zakaz ne prishel", "мой заказ не пришел"],
  ["cena ne ta", "цена не та"],
  ["Vernite den'gi za 7718", "Верните деньги за 7718"],
  // A first "e" is е, but in это.
  ["otmenite ego, eto oshibka", "отмените его, это ошибка"],
  ["shchetka slomalas", "щетка сломалас"],
  // Data stays as typed: numbers, e-mail addresses, and capitalised words inside a sentence.
  [
    "Pomenyayte adres dostavki zakaza 3004 na: Anna Petrova, Torstrasse 1, 10119 Berlin, DE",
    "Поменяйте адрес доставки заказа 3004 на: Anna Petrova, Torstrasse 1, 10119 Berlin, DE",
  ],
  ["spasibo", "спасибо"],
];

const NOT_RUSSIAN = [
  "Where is my order 3004?",
  "Cancel order 3004 please",
  "status?? #2255",
  "see ya",
  "ok",
  "hi",
  "Anna Petrova",
  "Torstraße 1, 10119 Berlin, DE",
  "I don't want to cancel it, just asking",
  // Already Cyrillic: nothing to read back.
  "где мой заказ 3004?",
  "",
];

describe("Russian in Latin letters", () => {
  it.each(READS)("%s reads as %s, and is Russian", (typed, cyrillic) => {
    expect(isTranslitRussian(typed)).toBe(true);
    expect(fromTranslit(typed)).toBe(cyrillic);
    expect(detectLanguage(typed)).toBe("ru");
  });

  it.each(NOT_RUSSIAN)("%j is not Russian in Latin letters", (text) => {
    expect(isTranslitRussian(text)).toBe(false);
    expect(fromTranslit(text)).toBeNull();
  });

  it("English stays English, Cyrillic stays Russian, no letters is no language", () => {
    expect(detectLanguage("Cancel order 3004 please")).toBe("en");
    expect(detectLanguage("отмените заказ 3004")).toBe("ru");
    expect(detectLanguage("#3004")).toBeNull();
  });
});
