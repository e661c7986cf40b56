/**
 * Dates, money and lists for replies, with the app's formatter (next-intl) in the reply's
 * language. Dates are rendered in UTC so the same tool result gives the same sentence on every
 * machine (the model must be deterministic). The formatter comes from use-intl's core (the
 * library under next-intl, without React): `npm run eval` runs this model under the react-server
 * condition, where next-intl's root entry pulls in client hooks that do not exist.
 */
import { createFormatter } from "use-intl/core";
import type { Locale as Lang } from "@/db/constants";

const DAY_MS = 86_400_000;
// onError rethrows: an unknown currency falls back to plain digits below instead of a logged error.
// One formatter per language for the process: a formatter keeps the Intl objects it built, and
// building them (a new Intl.NumberFormat/DateTimeFormat per reply) was most of a reply's cost.
const formatters = new Map<Lang, ReturnType<typeof createFormatter>>();
const formatter = (lang: Lang) => {
  let f = formatters.get(lang);
  if (!f) {
    f = createFormatter({
      locale: lang,
      timeZone: "UTC",
      onError: (e) => {
        throw e;
      },
    });
    formatters.set(lang, f);
  }
  return f;
};

export function day(iso: string, lang: Lang): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return formatter(lang).dateTime(d, { day: "numeric", month: "long" });
}

/** The delivery date plus the window, as the policy counts it (days from delivery). */
export function plusDays(iso: string, days: number): string {
  return new Date(new Date(iso).getTime() + days * DAY_MS).toISOString();
}

export function money(minor: number, currency: string, lang: Lang): string {
  try {
    return formatter(lang).number(minor / 100, { style: "currency", currency });
  } catch {
    return `${(minor / 100).toFixed(2)} ${currency}`;
  }
}

export function items(list: { name: string; quantity?: number | undefined }[]): string {
  return list
    .map((i) => (i.quantity && i.quantity > 1 ? `${i.quantity} × ${i.name}` : i.name))
    .join(", ");
}

/** "a, b or c" / "a, b или c". */
export function alternatives(words: string[], lang: Lang): string {
  if (words.length <= 1) return words.join("");
  const last = words.at(-1);
  return `${words.slice(0, -1).join(", ")} ${lang === "ru" ? "или" : "or"} ${last}`;
}
