import { cookies, headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { getCurrentUser } from "@/lib/auth/session";
import { formats } from "./formats";
import { LOCALE_COOKIE, type Locale, resolveLocale } from "./locales";
import { messagesFor, TIME_ZONE } from "./messages";

/**
 * The interface language of one request (next-intl without locale routing: URLs carry no
 * language). Server components call getTranslations/getFormatter, and the root layout's
 * NextIntlClientProvider hands the same locale and messages to client components.
 */
export default getRequestConfig(async () => {
  const h = await headers();
  const user = await getCurrentUser(h);
  const locale: Locale = resolveLocale({
    saved: user?.locale,
    cookie: (await cookies()).get(LOCALE_COOKIE)?.value,
    acceptLanguage: h.get("accept-language"),
  });
  return { locale, messages: messagesFor(locale), timeZone: TIME_ZONE, formats };
});
