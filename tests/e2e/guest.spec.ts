import { expect, test } from "@playwright/test";
import { guestCodeFromMail } from "./guest-mail";
import { expectNoEnglish } from "./language";

/**
 * "Find an order without an account" on our own sign-in page, in Russian: a guest session for
 * /chat, guest order 5501 verified with the code from the mail (the form outside the chat), then
 * cancelled through the same card as a signed-in customer's.
 */
// Chromium sends Accept-Language: ru-RU and reports navigator.language "ru-RU".
test.use({ locale: "ru-RU" });

test("на странице входа: найти заказ без аккаунта, подтвердить 5501 кодом из письма и отменить его", async ({
  page,
}) => {
  await page.goto("/sign-in");
  await expectNoEnglish(page, [
    "Returns",
    "Desk",
    "anna",
    "boris",
    "staff",
    "example",
    "com",
    "returns-demo",
  ]);
  await page.getByTestId("sign-in-guest").click();
  await expect(page).toHaveURL(/\/chat/);
  const form = page.getByTestId("guest-verify");
  await form.getByTestId("guest-verify-open").click();
  await form.getByTestId("guest-order-id").fill("5501");
  // The sign-in page's button, the form and the chat around it: no English word but the brand.
  await expectNoEnglish(page, ["Returns", "Desk"]);
  await form.getByTestId("guest-email").fill("lena@example.org");
  const since = Date.now() - 1000;
  await form.getByTestId("guest-send").click();
  await expect(form.getByTestId("guest-message")).toContainText("мы отправили на него код");
  await form.getByTestId("guest-code").fill(await guestCodeFromMail("5501", since));
  await form.getByTestId("guest-confirm").click();
  await expect(form.getByTestId("guest-verified")).toContainText("5501");
  await page.getByTestId("chat-composer").fill("Отмените заказ 5501, я передумала");
  await page.getByTestId("chat-send").click();
  const card = page.getByTestId("confirm-card").last();
  await expect(card.getByTestId("confirm-order")).toContainText("5501");
  await card.getByTestId("confirm-button").click();
  await expect(card.getByTestId("confirm-outcome")).toContainText("отмен");
});
