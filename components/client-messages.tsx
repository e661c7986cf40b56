import { NextIntlClientProvider } from "next-intl";
import { getMessages } from "next-intl/server";
import type { ReactNode } from "react";
import type { Messages } from "@/lib/i18n/messages";

/**
 * Hands the client components below only the catalogue parts they use. Server components read
 * the whole catalogue on the server; what is sent to the browser is what its components need,
 * so a page carries no wording of other pages (the demo accounts' names on a chat's 404, say).
 * Locale, time zone and formats come from the request (lib/i18n/request.ts).
 */
export async function ClientMessages({
  namespaces,
  children,
}: {
  namespaces: (keyof Messages)[];
  children: ReactNode;
}) {
  const all = (await getMessages()) as Messages;
  const picked = Object.fromEntries(namespaces.map((n) => [n, all[n]]));
  return <NextIntlClientProvider messages={picked}>{children}</NextIntlClientProvider>;
}
