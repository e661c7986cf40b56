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

describe("the plain text, paragraph by paragraph", () => {
  it("the return's mail: greeting, what happened, how to send it back, the refund, who writes", async () => {
    const mail = await renderMail("mail.return_confirmed", payload("en"));
    expect(mail.text.split(/\n\n+/)).toEqual([
      "Hello,",
      "we have registered your return RT-0042 for order 7718.",
      "HOW TO SEND THE ITEM BACK",
      "Pack the item with everything it came with. Write RT-0042 clearly on the parcel. Send it to: Returns Desk, 12 Warehouse Road, 10115 Berlin, Germany. Keep the receipt of the shipment.",
      "Refund: €123.45, to your original payment method, once the parcel has reached us and we have checked it.",
      "Returns Desk",
      "-".repeat(40),
      "You receive this email because of your order 7718 at Returns Desk. Reference: RT-0042.",
    ]);
  });

  it("a failed refund's mail in Russian: no how-to, the amount and the reference", async () => {
    const mail = await renderMail("mail.refund_failed", payload("ru"));
    expect(mail.text.split(/\n\n+/)).toEqual([
      "Здравствуйте!",
      expect.stringMatching(/^Возврат 123,45\s€ за заказ 7718 \(RT-0042\) не прошёл/),
      "Вам ничего не нужно делать: наша команда свяжется с вами, чтобы всё уладить.",
      "Returns Desk",
      "-".repeat(40),
      "Вы получили это письмо из-за заказа 7718 в Returns Desk. Номер: RT-0042.",
    ]);
  });

  it("the HTML sets the heading and the footer apart as the plain text does", async () => {
    const mail = await renderMail("mail.return_confirmed", payload("en"));
    expect(mail.html).toContain(
      '<h2 style="font-size:16px;margin:18px 0 8px">How to send the item back</h2>',
    );
    expect(mail.html).toContain(
      '<p style="font-size:15px;line-height:22px;margin:0 0 14px">Returns Desk</p><hr style="border:none;border-top:1px solid #d0d7de;margin:18px 0"/><p style="font-size:12px;line-height:18px;color:#59636e;margin:0">You receive this email',
    );
  });
});
