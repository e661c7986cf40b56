import fs from "node:fs";
import path from "node:path";
import { expect, test } from "../e2e/fixtures";
import { ChatPage, SignInPage } from "../e2e/pages";

/**
 * The README's screenshot pairs: the confirm card and /audit, in English and in
 * Russian, written to docs/screenshots/. Not part of `npm test`: it rewrites files in docs/, so
 * it runs on purpose with `npm run screenshots` (scripts/screenshots.mjs), against the same
 * production build and throwaway database as the e2e suite.
 */
const DOCS = path.join(process.cwd(), "docs/screenshots");

const LANGUAGES = [
  {
    lang: "en",
    browser: "en-GB",
    ask: (order: string) => `Create a return request for order ${order}. The item arrived damaged.`,
    confirm: "Confirm",
    audit: "Audit",
  },
  {
    lang: "ru",
    browser: "ru-RU",
    ask: (order: string) => `Оформите возврат заказа ${order}, товар пришёл повреждённым.`,
    confirm: "Подтвердить",
    audit: "Аудит",
  },
] as const;

test.use({ viewport: { width: 1000, height: 760 } });
fs.mkdirSync(DOCS, { recursive: true });

// Cards first: the audit pages then show these proposals among the newest events.
for (const l of LANGUAGES) {
  test.describe(`${l.lang}`, () => {
    test.use({ locale: l.browser });

    test(`the confirm card (${l.lang})`, async ({ page, boris }) => {
      await new SignInPage(page).as(boris);
      await expect(page.locator("html")).toHaveAttribute("lang", l.lang);
      const chat = new ChatPage(page);
      await chat.startNewChat();
      await chat.ask(l.ask(boris.order("4410")));
      await expect(chat.card.getByTestId("confirm-button")).toHaveText(l.confirm);
      await chat.card.screenshot({
        path: path.join(DOCS, `card-${l.lang}.png`),
        animations: "disabled",
      });
      // Confirmed, so the audit pages below show a decision next to the proposals.
      await chat.card.getByTestId("confirm-button").click();
      await expect(chat.card).toHaveAttribute("data-state", "executed");
    });
  });
}

for (const l of LANGUAGES) {
  test.describe(`${l.lang} audit`, () => {
    test.use({ locale: l.browser, viewport: { width: 1280, height: 800 } });

    test(`the audit page (${l.lang})`, async ({ page }) => {
      await new SignInPage(page).demo("staff");
      await page.goto("/audit");
      await expect(page.locator("html")).toHaveAttribute("lang", l.lang);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(l.audit);
      await page.screenshot({
        path: path.join(DOCS, `audit-${l.lang}.png`),
        animations: "disabled",
        fullPage: true,
      });
    });
  });
}
