/**
 * A customer email's words and markup: the texts are the catalogue's (messages/<lang>.json,
 * `mail.*`), the HTML is rendered from plain JSX by @react-email/render (the five elements are
 * written here: the component kit would bring some twenty packages for them), and the plain text
 * is the same document converted by render's own plainText mode. No database, no network: the
 * relay renders from the effect's payload, so every resend is the same message.
 */
import { render } from "@react-email/render";
import type { CSSProperties, ReactNode } from "react";
import { createTranslator } from "use-intl/core";
import en from "@/messages/en.json";
import ru from "@/messages/ru.json";
import type { MailKind, MailPayload } from "../kinds";

export type RenderedMail = { subject: string; text: string; html: string };

const CATALOGUES = { en, ru } as const;

/** The template's name in the catalogue's select messages: the kind without `mail.`. */
export const templateOf = (kind: MailKind) => kind.slice("mail.".length);

const body: CSSProperties = {
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif",
  color: "#1f2328",
  backgroundColor: "#f6f8fa",
  margin: 0,
  padding: "24px 0",
};
const card: CSSProperties = {
  maxWidth: 560,
  margin: "0 auto",
  backgroundColor: "#ffffff",
  border: "1px solid #d0d7de",
  borderRadius: 8,
  padding: 24,
};
const p: CSSProperties = { fontSize: 15, lineHeight: "22px", margin: "0 0 14px" };
const small: CSSProperties = { fontSize: 12, lineHeight: "18px", color: "#59636e", margin: 0 };

function Layout({ lang, title, children }: { lang: string; title: string; children: ReactNode }) {
  return (
    <html lang={lang}>
      {/* An email document, not a Next.js page: next/head has no place here (biome.json turns
          Next's <head> rule off for the mail folder). */}
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width" />
        <title>{title}</title>
      </head>
      <body style={body}>
        <div style={card}>{children}</div>
      </body>
    </html>
  );
}

export async function renderMail(kind: MailKind, payload: MailPayload): Promise<RenderedMail> {
  const lang = payload.locale;
  const t = createTranslator({ locale: lang, messages: CATALOGUES[lang], namespace: "mail" });
  const amount = new Intl.NumberFormat(lang, {
    style: "currency",
    currency: payload.currency,
  }).format(payload.amount / 100);
  const values = {
    template: templateOf(kind),
    orderId: payload.orderId,
    reference: payload.reference,
    amount,
  };
  const subject = t("subject", values);
  const refund = t("refund", values);
  const doc = (
    <Layout lang={lang} title={subject}>
      <p style={p}>{t("greeting")}</p>
      <p style={p}>{t("intro", values)}</p>
      {kind === "mail.return_confirmed" ? (
        <>
          <h2 style={{ fontSize: 16, margin: "18px 0 8px" }}>{t("howToReturn")}</h2>
          <p style={p}>{t("steps", values)}</p>
        </>
      ) : null}
      {refund ? <p style={p}>{refund}</p> : null}
      <p style={p}>{t("signature")}</p>
      <hr style={{ border: "none", borderTop: "1px solid #d0d7de", margin: "18px 0" }} />
      <p style={small}>{t("footer", values)}</p>
    </Layout>
  );
  const [html, text] = await Promise.all([render(doc), render(doc, { plainText: true })]);
  return { subject, text, html };
}

/**
 * The one-time code a shopper without an account asked for, to verify an order (lib/guests). Not
 * an effect of the outbox: the code must not rest in a payload in clear, and a code that does not
 * arrive is simply asked for again.
 */
export async function renderGuestCodeMail({
  locale,
  orderId,
  code,
  minutes,
}: {
  locale: "en" | "ru";
  orderId: string;
  code: string;
  minutes: number;
}): Promise<RenderedMail> {
  const t = createTranslator({ locale, messages: CATALOGUES[locale], namespace: "mail.guestCode" });
  const subject = t("subject", { orderId, code });
  const doc = (
    <Layout lang={locale} title={subject}>
      <p style={p}>{t("greeting")}</p>
      <p style={p}>{t("intro", { orderId })}</p>
      <p style={{ ...p, fontSize: 28, letterSpacing: 6, fontWeight: 700 }}>{code}</p>
      <p style={p}>{t("validity", { minutes })}</p>
      <p style={p}>{t("notYou")}</p>
      <p style={p}>{t("signature")}</p>
    </Layout>
  );
  const [html, text] = await Promise.all([render(doc), render(doc, { plainText: true })]);
  return { subject, text, html };
}
