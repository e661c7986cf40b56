/**
 * What a customer's email says, for each of the four mails in both languages: the subject, every
 * paragraph in the HTML and in the plain text (the same document), the return's how-to section
 * only in the return's mail, the amount in the customer's locale, and the document's language
 * and title. The words themselves are the catalogue's; this pins that each one is there.
 */
import { describe, expect, it } from "vitest";
import { MAIL_KINDS, type MailKind } from "@/lib/effects/kinds";
import { renderMail, templateOf } from "@/lib/effects/mail/render";
import en from "@/messages/en.json";
import ru from "@/messages/ru.json";

const payload = (locale: "en" | "ru") => ({
  to: "anna@example.com",
  locale,
  orderId: "7718",
  reference: "RT-0042",
  amount: 12_345,
  currency: "EUR",
});

/** The catalogue's plain (non-select) texts, which every mail carries word for word. */
const fixed = { en: en.mail, ru: ru.mail } as const;

describe("a customer's email", () => {
  it.each(
    MAIL_KINDS.flatMap((kind) => (["en", "ru"] as const).map((lang) => [kind, lang] as const)),
  )("%s in %s: subject, every paragraph in HTML and plain text", async (kind: MailKind, lang) => {
    const mail = await renderMail(kind, payload(lang));
    expect(mail.subject).toContain("7718");
    expect(mail.subject).not.toMatch(/\{|\}/);
    expect(mail.html).toMatch(/^<!DOCTYPE html/i);
    expect(mail.html).toContain(`<html lang="${lang}"`);
    expect(mail.html).toContain(`<title>${mail.subject.replace(/&/g, "&amp;")}</title>`);
    expect(mail.html).toContain("<hr");
    for (const doc of [mail.html, mail.text]) {
      expect(doc).toContain(fixed[lang].greeting);
      expect(doc).toContain(fixed[lang].signature);
      // The footer names the order and the reference.
      expect(doc).toMatch(/7718[\s\S]*RT-0042/);
    }
    // Plain text is text: no markup left in it.
    expect(mail.text).not.toMatch(/<[a-z/!]/i);
    expect(mail.text.length).toBeGreaterThan(60);
    const howTo = fixed[lang].howToReturn;
    if (kind === "mail.return_confirmed") {
      // The plain text writes the heading in capitals.
      for (const doc of [mail.html, mail.text])
        expect(doc.toLowerCase()).toContain(howTo.toLowerCase());
      expect(mail.html).toContain("<h2");
    } else {
      expect(mail.html).not.toContain(howTo);
      expect(mail.html).not.toContain("<h2");
    }
    expect(templateOf(kind)).toBe(kind.slice("mail.".length));
  });

  it("the amount is written as the customer's locale writes money", async () => {
    const refundEn = await renderMail("mail.refund_succeeded", payload("en"));
    expect(refundEn.subject).toContain("€123.45");
    const refundRu = await renderMail("mail.refund_succeeded", payload("ru"));
    expect(refundRu.subject).toMatch(/123,45\s€/);
  });

  it("the same payload renders the same message (a resend is the same mail)", async () => {
    const a = await renderMail("mail.cancellation_confirmed", payload("ru"));
    const b = await renderMail("mail.cancellation_confirmed", payload("ru"));
    expect(b).toEqual(a);
  });
});
