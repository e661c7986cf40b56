/**
 * Countries as customers write them, for the offline model's reading of an address and for its
 * replies: the ISO code for a name in English, the local language or Russian (Cyrillic names of
 * the shipping countries included: "Берлин, Германия" is DE), and each country's name to put in
 * a sentence. The countries we do not ship to are here too, so a refusal can name the one the
 * customer asked for instead of answering something else. Where we ship is SHIPPING_COUNTRIES.
 */
import type { Locale as Lang } from "@/db/constants";
import { SHIPPING_COUNTRIES } from "@/lib/orders/address";

type Country = {
  /** In a sentence: "to the United Kingdom" / "в Великобританию" (the Russian accusative). */
  to: Record<Lang, string>;
  /** What customers write, lower case (normalised text), in any language. */
  names: string[];
};

const COUNTRIES: Record<string, Country> = {
  DE: {
    to: { en: "Germany", ru: "Германию" },
    names: ["germany", "deutschland", "германия", "германию", "германии", "германія"],
  },
  AT: {
    to: { en: "Austria", ru: "Австрию" },
    names: ["austria", "österreich", "osterreich", "австрия", "австрию", "австрии"],
  },
  BE: {
    to: { en: "Belgium", ru: "Бельгию" },
    names: ["belgium", "belgië", "belgique", "бельгия", "бельгию", "бельгии"],
  },
  NL: {
    to: { en: "the Netherlands", ru: "Нидерланды" },
    names: ["netherlands", "the netherlands", "holland", "nederland", "нидерланды", "голландия"],
  },
  FR: { to: { en: "France", ru: "Францию" }, names: ["france", "франция", "францию", "франции"] },
  ES: {
    to: { en: "Spain", ru: "Испанию" },
    names: ["spain", "españa", "espana", "испания", "испанию", "испании"],
  },
  IT: {
    to: { en: "Italy", ru: "Италию" },
    names: ["italy", "italia", "италия", "италию", "италии"],
  },
  PL: {
    to: { en: "Poland", ru: "Польшу" },
    names: ["poland", "polska", "польша", "польшу", "польше"],
  },
  GB: {
    to: { en: "the United Kingdom", ru: "Великобританию" },
    names: [
      "united kingdom",
      "the united kingdom",
      "uk",
      "great britain",
      "britain",
      "england",
      "scotland",
      "wales",
      "великобритания",
      "великобританию",
      "англия",
      "англию",
      "британия",
    ],
  },
  US: {
    to: { en: "the United States", ru: "США" },
    names: ["united states", "the united states", "usa", "us", "america", "сша", "америка"],
  },
  CH: {
    to: { en: "Switzerland", ru: "Швейцарию" },
    names: ["switzerland", "schweiz", "suisse", "швейцария", "швейцарию"],
  },
  RU: { to: { en: "Russia", ru: "Россию" }, names: ["russia", "россия", "россию", "рф"] },
  UA: { to: { en: "Ukraine", ru: "Украину" }, names: ["ukraine", "украина", "украину"] },
  CA: { to: { en: "Canada", ru: "Канаду" }, names: ["canada", "канада", "канаду"] },
  NO: { to: { en: "Norway", ru: "Норвегию" }, names: ["norway", "norge", "норвегия"] },
  SE: { to: { en: "Sweden", ru: "Швецию" }, names: ["sweden", "sverige", "швеция"] },
  // Neighbours of the countries we ship to, which customers name as often as those.
  IE: {
    to: { en: "Ireland", ru: "Ирландию" },
    names: ["ireland", "eire", "éire", "republic of ireland", "ирландия", "ирландию", "ирландии"],
  },
  PT: { to: { en: "Portugal", ru: "Португалию" }, names: ["portugal", "португалия", "португалию"] },
  DK: { to: { en: "Denmark", ru: "Данию" }, names: ["denmark", "danmark", "дания", "данию"] },
  CZ: {
    to: { en: "Czechia", ru: "Чехию" },
    names: ["czechia", "czech republic", "česko", "чехия", "чехию"],
  },
  LU: {
    to: { en: "Luxembourg", ru: "Люксембург" },
    names: ["luxembourg", "luxemburg", "люксембург"],
  },
  FI: {
    to: { en: "Finland", ru: "Финляндию" },
    names: ["finland", "suomi", "финляндия", "финляндию"],
  },
};

const BY_NAME = new Map(
  Object.entries(COUNTRIES).flatMap(([code, c]) => c.names.map((n) => [n, code] as const)),
);

/** The ISO code of a country as written ("Germany", "Германия", "de"), or null. */
export function countryCode(written: string): string | null {
  const p = written.trim().replace(/\.$/, "").toLowerCase().replaceAll("ё", "е");
  // A two-letter code as typed ("DE"); "us" and "uk" are also names, read as those countries.
  const named = BY_NAME.get(p);
  if (named) return named;
  return /^[a-z]{2}$/.test(p) ? p.toUpperCase() : null;
}

/** The country in a sentence ("the United Kingdom", "Великобританию"), or its code. */
export function countryTo(code: string, lang: Lang): string {
  return Object.hasOwn(COUNTRIES, code) ? COUNTRIES[code]!.to[lang] : code;
}

/** Where we ship, in a sentence: "Germany, Austria, … and Poland". */
export function shippingCountries(lang: Lang): string {
  const names = Object.keys(SHIPPING_COUNTRIES).map((code) => countryTo(code, lang));
  return `${names.slice(0, -1).join(", ")} ${lang === "ru" ? "и" : "and"} ${names.at(-1)}`;
}
