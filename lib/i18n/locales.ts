/**
 * Which interface language a request gets, as plain functions (no Next.js APIs) so they can be
 * tested directly: the user's saved choice, then the browser's cookie (set by the switch before
 * sign-in), then Accept-Language, then English.
 */
import Negotiator from "negotiator";
import { isLocale, LOCALES, type Locale } from "@/db/constants";

export { isLocale, LOCALES, type Locale };
export const DEFAULT_LOCALE: Locale = "en";
/** The browser's choice before (and besides) sign-in. */
export const LOCALE_COOKIE = "locale";

export function resolveLocale(input: {
  saved?: string | null;
  cookie?: string | null;
  acceptLanguage?: string | null;
}): Locale {
  if (isLocale(input.saved)) return input.saved;
  if (isLocale(input.cookie)) return input.cookie;
  if (input.acceptLanguage) {
    // "ru-RU" matches "ru"; q-values and order are honoured.
    const best = new Negotiator({
      headers: { "accept-language": input.acceptLanguage },
    }).language([...LOCALES]);
    if (isLocale(best)) return best;
  }
  return DEFAULT_LOCALE;
}
