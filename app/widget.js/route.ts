import { createTranslator } from "use-intl/core";
import { embedEnabled } from "@/lib/embed/session";
import { widgetScript } from "@/lib/embed/widget-script";
import { AppError } from "@/lib/errors";
import { configuredOrigin, expectedOrigin, isLoopbackRequest } from "@/lib/http/origin";
import { errorResponse } from "@/lib/http/respond";
import { messagesFor } from "@/lib/i18n/messages";

export const dynamic = "force-dynamic";

/**
 * The store page's script tag: the widget, configured for this server (lib/embed/widget-runtime.ts).
 * The origin it frames and posts the store's token to comes from configuration (BETTER_AUTH_URL),
 * never from the request's Host: a shared cache or a default virtual host would otherwise hand
 * one Host's answer, and with it the customers' tokens, to another site.
 */
export async function GET(req: Request): Promise<Response> {
  const configured = configuredOrigin();
  // Without a configured origin only a local demo may be served, by a loopback name, uncached.
  const origin = configured ?? (isLoopbackRequest(req) ? expectedOrigin(req) : null);
  if (!origin)
    return errorResponse(
      new AppError(
        "invalid_request",
        "This server's public origin is not configured: set BETTER_AUTH_URL to serve /widget.js.",
      ),
    );
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
      // The local demo's answer depends on the Host it was asked by, so no cache keeps it.
      "cache-control": configured ? "public, max-age=300" : "no-store",
      vary: "Host",
    },
  });
}
