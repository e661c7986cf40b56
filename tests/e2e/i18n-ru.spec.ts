import type { Page } from "@playwright/test";
import { DEMO_ORDERS, DEMO_PASSWORD, DEMO_USERS } from "@/db/seed-data";
import { type Customer, expect, test } from "./fixtures";
import { expectNoEnglish, latinWords } from "./language";
import { ChatPage, SignInPage } from "./pages";

/**
 * The Russian walk-through: a Russian-speaking customer (the browser asks for ru-RU, nobody picked a
 * language) meets no English word outside order data: sign-in and its error, the orders page, a
 * return proposed and confirmed, the chat's error banners; and staff on /audit. Each test has its
 * own customer and orders (tests/e2e/fixtures.ts). The chat scenarios' Russian wording itself is
 * checked in chat-ru.spec.ts.
 */

/**
 * Words that are data, not interface: order items and payment methods, people's names and
 * e-mail addresses, the brand, and two international abbreviations (UTC, CSV).
 */
const DATA_WORDS = [
  ...DEMO_ORDERS.flatMap((o) => [...o.items.map((i) => i.name), o.paymentMethod]),
  ...DEMO_USERS.flatMap((u) => [u.name, u.email]),
  DEMO_PASSWORD,
  "Returns Desk",
  "e2e.example.com",
  "UTC",
  "CSV",
].flatMap((s) => s.match(/[A-Za-z][A-Za-z'’-]*/g) ?? []);

// Chromium sends Accept-Language: ru-RU and reports navigator.language "ru-RU".
test.use({ locale: "ru-RU" });

async function signIn(page: Page, who: Customer) {
  await page.goto("/sign-in");
  await new SignInPage(page).signInWith(who.email, who.password);
  await expect(page.getByTestId("current-user")).toBeVisible();
}

async function expectRussianPage(page: Page) {
  await expect(page.locator("html")).toHaveAttribute("lang", "ru");
  await expectNoEnglish(page, DATA_WORDS);
}

test("the checker finds English words (it is not vacuous)", async ({ page }) => {
  await page.setContent(
    `<html lang="ru"><body><p>Заказ 4410 <b>Confirm</b></p><p lang="en">English</p>
     <span aria-label="Close">×</span><input placeholder="Поиск"></body></html>`,
  );
  expect(await latinWords(page, [])).toEqual(["Close", "Confirm"]);
});

test("sign-in, orders, a confirmed return and the chat's errors are all in Russian", async ({
  page,
  context,
  boris,
}) => {
  const order = boris.order("4410");
  await page.goto("/sign-in");
  await expectRussianPage(page);
  await expect(page.getByTestId("sign-in-submit")).toHaveText("Войти");

  await new SignInPage(page).signInWith(boris.email, "wrong-password");
  await expect(page.getByTestId("sign-in-error")).toHaveText("Неверная почта или пароль.");
  await expectRussianPage(page);

  await signIn(page, boris);
  await expect(page.getByTestId(`order-${order}`)).toContainText(`Заказ ${order}`);
  await expect(page.getByTestId(`order-${order}`)).toContainText("Доставлен");
  await expectRussianPage(page);

  const chat = new ChatPage(page);
  await chat.startNewChat();
  await expectRussianPage(page);
  const answer = await chat.ask(`Оформите возврат заказа ${order}, товар пришёл повреждённым.`);
  await expect(answer.getByTestId("tool-activity").first()).toContainText(order);
  await expect(chat.card.getByRole("heading")).toHaveText("Подтвердите заявку на возврат");
  await expect(chat.disabledReason).toContainText("Подтвердите или отмените заявку");
  await expectRussianPage(page);

  await chat.card.getByTestId("confirm-button").click();
  await expect(chat.card.getByTestId("confirm-outcome")).toContainText("Номер заявки");
  await expect(chat.composer).toHaveAttribute("data-mode", "message");
  await expectRussianPage(page);

  // A message over the limit: the counter explains, in Russian, with a Russian plural.
  await chat.composer.fill("я".repeat(2002));
  await expect(page.getByTestId("char-counter")).toHaveText(
    "2002 / 2000: на 2 символа больше допустимого. Сократите сообщение, чтобы отправить его.",
  );
  await expectRussianPage(page);
  await chat.composer.fill("");

  // The session ends: the banner says so and how to come back.
  await context.clearCookies();
  await chat.send("Где мой заказ?");
  await expect(chat.error).toHaveAttribute("data-kind", "unauthenticated");
  await expect(page.getByTestId("sign-in-again")).toHaveText("Войдите снова");
  await expectRussianPage(page);

  // Someone else's (or no) chat.
  await signIn(page, boris);
  await page.goto("/chat/00000000-0000-0000-0000-000000000000");
  await expect(chat.error).toBeVisible();
  await expectRussianPage(page);
});

test("staff read /audit in Russian", async ({ page }) => {
  await new SignInPage(page).demo("staff");
  await page.goto("/audit");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Аудит");
  await expectRussianPage(page);
  // Filters that cannot be used are explained in Russian too.
  await page.goto("/audit?status=on_fire&from=soon");
  await expect(page.getByTestId("filter-problems")).toContainText("Неизвестный статус");
  // The values typed into the URL are quoted back as they were.
  await expect(page.locator("html")).toHaveAttribute("lang", "ru");
  await expectNoEnglish(page, [...DATA_WORDS, "on_fire", "on", "fire", "soon"]);
});

test("before sign-in the browser keeps the language picked on the sign-in page", async ({
  page,
}) => {
  await page.goto("/sign-in");
  await expect(page.getByTestId("sign-in-submit")).toHaveText("Войти");
  await page.getByTestId("locale-switch").selectOption("en");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByTestId("sign-in-submit")).toHaveText("Sign in");
  await page.reload();
  await expect(page.getByTestId("sign-in-submit")).toHaveText("Sign in");
});

test("a signed-in customer's choice is saved on the account and follows them", async ({
  page,
  browser,
  baseURL,
  boris,
}) => {
  await signIn(page, boris);
  await expect(page.getByTestId("sign-out")).toHaveText("Выйти");
  await page.getByTestId("locale-switch").selectOption("en");
  await expect(page.getByTestId("sign-out")).toHaveText("Sign out");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");

  // Another browser asking for Russian, with no cookie, still gets the account's English.
  const other = await browser.newContext({ baseURL, locale: "ru-RU" });
  const otherPage = await other.newPage();
  await signIn(otherPage, boris);
  await expect(otherPage.locator("html")).toHaveAttribute("lang", "en");
  await expect(otherPage.getByTestId("sign-out")).toHaveText("Sign out");
  await other.close();
});
