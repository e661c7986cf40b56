import type { Page } from "@playwright/test";
import { eq, sql } from "drizzle-orm";
import { getDb } from "@/db";
import { productVariants } from "@/db/schema";
import { DEMO_ORDERS } from "@/db/seed-data";
import { expect, test } from "./fixtures";
import { expectNoEnglish } from "./language";
import { ChatPage, SignInPage } from "./pages";

/** Latin words of the products' own names (the store's data), which a Russian page shows. */
const PRODUCT_WORDS = DEMO_ORDERS.flatMap((o) => o.items.map((i) => i.name)).flatMap(
  (s) => s.match(/[A-Za-z][A-Za-z'’-]*/g) ?? [],
);

/**
 * Items and sizes end to end, in English and in Russian, on the built-in store with the offline
 * model: Anna returns ONE of the two T-shirts of her 4702 through the chat's card, whose refund is
 * that one T-shirt's price and not the order's; then she exchanges the shoes of the same order for
 * a size bigger. After each Confirm the orders page shows it on the line concerned. Each test has
 * its own Anna and her own copy of 4702 (tests/e2e/fixtures.ts). The test reads what a person
 * reads: the card by its title, the order by its heading, the lines by their text.
 */

/** What differs between the two languages: the customer's words and the page's. */
type Language = {
  locale: string;
  askReturn: (order: string) => string;
  askExchange: (order: string) => string;
  /** The card's heading while it waits, then (decided) what it was about. */
  returnTitle: string;
  returnSubject: (order: string) => string;
  exchangeTitle: string;
  exchangeSubject: (order: string) => string;
  confirm: string;
  /** The card's refund: the amount first, then where it goes. */
  refund: RegExp;
  returnCreated: RegExp;
  /** The chat's note under a confirmed return, as the next turn's history has it. */
  returnNote: (order: string) => RegExp;
  exchangeMade: RegExp;
  orderHeading: (order: string) => string;
  tshirtLine: RegExp;
  shoesLine: RegExp;
  tshirtReturned: string;
  shoesExchanged: string;
  /** Russian: the orders page shows no English word but the products' names. */
  russian: boolean;
};

const LANGUAGES: Record<"English" | "Russian", Language> = {
  English: {
    locale: "en-GB",
    askReturn: (o) => `I want to return one of the t-shirts from ${o}, it arrived damaged`,
    askExchange: (o) => `Please exchange the shoes from ${o} for a size bigger`,
    returnTitle: "Confirm your return request",
    returnSubject: (o) => `Return request for order ${o}`,
    exchangeTitle: "Confirm your exchange",
    exchangeSubject: (o) => `Exchange for order ${o}`,
    confirm: "Confirm",
    refund: /^€35\.00 to Visa/,
    returnCreated: /^Return request created\. Request ID: \S+\.$/,
    returnNote: (o) => new RegExp(`Return request \\S+ for order ${o} has been created\\.`),
    exchangeMade: /^Exchange \S+: 1 × Trail running shoes in size 43 instead of size 42\.$/,
    orderHeading: (o) => `Order ${o}`,
    tshirtLine: /^2 × Merino T-shirt, size M · €35\.00 each/,
    shoesLine: /^1 × Trail running shoes, size 42 · €120\.00 each/,
    tshirtReturned: "Returned: 1 · return requested",
    shoesExchanged: "Exchanged: 1 · size 42 → 43 · new one on its way, the old one to send back",
    russian: false,
  },
  Russian: {
    locale: "ru-RU",
    askReturn: (o) => `Хочу вернуть одну футболку из заказа ${o}, она бракованная`,
    askExchange: (o) => `Обменяйте кроссовки из заказа ${o} на размер больше`,
    returnTitle: "Подтвердите заявку на возврат",
    returnSubject: (o) => `Заявка на возврат по заказу ${o}`,
    exchangeTitle: "Подтвердите обмен",
    exchangeSubject: (o) => `Обмен по заказу ${o}`,
    confirm: "Подтвердить",
    refund: /^35,00\s€ на Visa/,
    returnCreated: /^Заявка на возврат создана\. Номер заявки: \S+\.$/,
    returnNote: (o) => new RegExp(`Заявка на возврат \\S+ по заказу ${o} создана\\.`),
    exchangeMade: /^Обмен \S+: 1 × Trail running shoes, размер 43 вместо размер 42\.$/,
    orderHeading: (o) => `Заказ ${o}`,
    tshirtLine: /^2 × Merino T-shirt, размер M · 35,00\s€ за шт\./,
    shoesLine: /^1 × Trail running shoes, размер 42 · 120,00\s€ за шт\./,
    tshirtReturned: "Возврат: 1 шт. · возврат запрошен",
    shoesExchanged: "Обмен: 1 шт. · размер 42 → 43 · новый товар в пути, прежний ждём обратно",
    russian: true,
  },
};

/** The order on the orders page, found by its heading as a reader finds it. */
function orderOnPage(page: Page, heading: string) {
  return page
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: heading, exact: true }) });
}

/** One line of that order: the list item that names the product. */
function line(order: ReturnType<typeof orderOnPage>, text: RegExp) {
  return order.getByRole("listitem").filter({ hasText: text });
}

for (const [name, lang] of Object.entries(LANGUAGES)) {
  test.describe(`items and sizes (${name})`, () => {
    test.use({ locale: lang.locale });

    test("one T-shirt of two is returned for its own price, then the shoes go a size up", async ({
      page,
      anna,
    }) => {
      const o4702 = anna.order("4702");
      // The stock of a size is the store's, shared by every customer: the demo's one pair in 43
      // goes to the first test that exchanges for it. Each test puts that one pair back, through
      // the database of the server it talks to (the anna fixture pointed db/ at it).
      await getDb()
        .update(productVariants)
        .set({ stock: 1, stockVersion: sql`${productVariants.stockVersion} + 1` })
        .where(eq(productVariants.id, "trail-shoes-43"));
      await new SignInPage(page).as(anna);

      // Before anything: each line with its size and the price of one, nothing returned yet.
      const order = orderOnPage(page, lang.orderHeading(o4702));
      await expect(line(order, lang.tshirtLine)).toBeVisible();
      await expect(line(order, lang.shoesLine)).toBeVisible();
      await expect(order.getByText(lang.tshirtReturned)).toHaveCount(0);

      const chat = new ChatPage(page);
      await chat.startNewChat();

      // The return of one T-shirt: the card's refund is that T-shirt's €35.00, not the €70.00 of
      // both nor the order's total.
      await chat.ask(lang.askReturn(o4702));
      const returnCard = page.getByRole("article", { name: lang.returnTitle });
      await expect(returnCard).toBeVisible();
      await expect(returnCard).toContainText("1 × Merino T-shirt");
      await expect(returnCard.getByRole("definition").filter({ hasText: lang.refund })).toHaveCount(
        1,
      );
      await returnCard.getByRole("button", { name: lang.confirm, exact: true }).click();
      // Decided, the card is headed by what it was about.
      const returned = page.getByRole("article", { name: lang.returnSubject(o4702) });
      await expect(
        returned.getByRole("status").filter({ hasText: lang.returnCreated }),
      ).toHaveCount(1);

      // The chat's note of the confirm comes as a message of its own: wait for it, so that the
      // next question's answer is counted after it.
      await expect(chat.lastAssistant).toContainText(lang.returnNote(o4702));

      // The exchange of the shoes for a size bigger: 42 → 43, the same price, so no refund.
      await chat.ask(lang.askExchange(o4702));
      const exchangeCard = page.getByRole("article", { name: lang.exchangeTitle });
      await expect(exchangeCard).toBeVisible();
      await expect(exchangeCard).toContainText("Trail running shoes");
      await exchangeCard.getByRole("button", { name: lang.confirm, exact: true }).click();
      const exchanged = page.getByRole("article", { name: lang.exchangeSubject(o4702) });
      await expect(
        exchanged.getByRole("status").filter({ hasText: lang.exchangeMade }),
      ).toHaveCount(1);

      // The orders page: the T-shirt line shows one returned, the shoes line the exchange.
      await page.goto("/");
      const after = orderOnPage(page, lang.orderHeading(o4702));
      const tshirt = line(after, lang.tshirtLine);
      await expect(tshirt.getByRole("listitem")).toHaveText([lang.tshirtReturned]);
      const shoes = line(after, lang.shoesLine);
      await expect(shoes.getByRole("listitem")).toHaveText([lang.shoesExchanged]);
      // The socks were neither returned nor exchanged: their line has nothing under it.
      await expect(line(after, /Hiking socks/).getByRole("listitem")).toHaveCount(0);
      // Russian: no English word but data (the products', the customer's and the app's names).
      if (lang.russian)
        await expectNoEnglish(page, [...PRODUCT_WORDS, ...anna.name.split(" "), "Returns", "Desk"]);
    });
  });
}
