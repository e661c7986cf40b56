import { createTranslator } from "use-intl/core";
import { servedOverHttps } from "@/lib/auth/secure-cookies";
import { embedEnabled } from "@/lib/embed/session";
import { widgetScript } from "@/lib/embed/widget-script";
import { messagesFor } from "@/lib/i18n/messages";

export const dynamic = "force-dynamic";

/** The store page's script tag: the widget, configured for this server (lib/embed/widget-runtime.ts). */
export async function GET(req: Request): Promise<Response> {
  const host = req.headers.get("host");
  const origin = host
    ? `${servedOverHttps(req) ? "https" : "http"}://${host}`
    : new URL(req.url).origin;
  // Both languages: the store's page picks one in ReturnsDesk.boot({ locale }).
  const texts = (locale: "en" | "ru") => {
    const t = createTranslator({ locale, messages: messagesFor(locale), namespace: "widget" });
    return { open: t("open"), close: t("close"), title: t("title") };
  };
  const body = widgetScript({
    origin,
    enabled: embedEnabled(),
    texts: { en: texts("en"), ru: texts("ru") },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/javascript; charset=utf-8",
      // Short: a change of EMBED_ALLOWED_ORIGINS or of the script reaches stores within minutes.
      "cache-control": "public, max-age=300",
    },
  });
}
