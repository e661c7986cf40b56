import { expect, test } from "@playwright/test";
import { ChatPage, OrdersPage, SignInPage } from "./pages";

/**
 * Scenarios 2, 4 and 6 of domain.md in Russian. The return is Boris's order 4410, so this file
 * never touches Anna's 7718 (whose one return belongs to chat.spec.ts): 4 cancels a card for
 * 4410, then 6 confirms a new one. The offline model answers in Russian, and the app's chrome
 * (the confirm card, the composer's note) follows the customer's language too.
 */
test.describe.configure({ mode: "serial" });

test.describe("chat: scenarios 2, 4 and 6 (Russian)", () => {
  test("2. «Где заказ 8041?»: the status tool, then an answer in Russian", async ({ page }) => {
    await new SignInPage(page).demo("anna");
    const chat = new ChatPage(page);
    await chat.startNewChat();
    const answer = await chat.ask("Где заказ 8041?");
    await expect(answer.getByTestId("tool-activity")).toHaveText(/Проверен заказ 8041/);
    await expect(answer).toContainText("Заказ 8041");
    await expect(answer).toContainText("в пути");
    await expect(chat.cards).toHaveCount(0);
  });

  test("4. a card for 4410; «Отменить» → cancelled, nothing created", async ({ page }) => {
    await new SignInPage(page).demo("boris");
    const chat = new ChatPage(page);
    await chat.startNewChat();
    const answer = await chat.ask("Оформите возврат заказа 4410, товар пришёл повреждённым.");
    await expect(answer).toContainText("Я подготовил заявку на возврат по заказу 4410");
    await expect(chat.card.getByTestId("confirm-order")).toContainText("4410");
    await expect(chat.card.getByRole("heading")).toHaveText("Подтвердите заявку на возврат");
    await expect(chat.card).toContainText("Пришёл повреждённым");
    await expect(chat.card.getByTestId("confirm-countdown")).toContainText(
      /Истекает через \d+:\d\d/,
    );
    await expect(chat.card.getByTestId("confirm-button")).toHaveText("Подтвердить");
    await expect(chat.card.getByTestId("cancel-button")).toHaveText("Отменить");
    await expect(chat.composer).toBeDisabled();
    await expect(chat.disabledReason).toHaveText(
      "Подтвердите или отмените заявку выше, прежде чем писать новое сообщение.",
    );

    await chat.card.getByTestId("cancel-button").click();
    await expect(chat.card.getByTestId("confirm-outcome")).toHaveText(
      "Отменено. Ничего не создано.",
    );
    await expect(chat.composer).toBeEnabled();
    await page.reload();
    await expect(chat.lastAssistant).toContainText(
      "Вы отменили заявку на возврат по заказу 4410. Ничего не создано.",
    );
    const orders = new OrdersPage(page);
    await orders.goto();
    await expect(orders.returnBadge("4410")).toHaveCount(0);
  });

  test("6. «Подтвердить» creates the return for 4410 once", async ({ page }) => {
    await new SignInPage(page).demo("boris");
    const chat = new ChatPage(page);
    await chat.startNewChat();
    await chat.ask("Создайте заявку на возврат заказа 4410. Причина: брак.");
    await expect(chat.card).toContainText("Брак");
    await expect(chat.card.getByTestId("confirm-button")).toHaveText("Подтвердить");
    await chat.card.getByTestId("confirm-button").click();
    await expect(chat.card.getByTestId("confirm-outcome")).toHaveText(
      /^Заявка на возврат создана\. Номер заявки: \S+\.$/,
    );

    // The model's next turn knows: asking again brings back the existing request, in Russian.
    const again = await chat.ask("Оформите возврат заказа 4410, брак.");
    await expect(again).toContainText("По заказу 4410 уже есть заявка на возврат");
    await expect(chat.cards).toHaveCount(1);
    await page.reload();
    await expect(chat.assistantMessages.nth(1)).toContainText(
      /Заявка на возврат \S+ по заказу 4410 создана\./,
    );
    const orders = new OrdersPage(page);
    await orders.goto();
    await expect(orders.returnBadge("4410")).toHaveCount(1);
  });
});
