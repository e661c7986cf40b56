import { expect, test } from "./fixtures";
import { ChatPage, OrdersPage, SignInPage } from "./pages";

/**
 * Scenarios 2, 4 and 6 of docs/domain.md in Russian, on the return of Boris's 4410 (each test
 * with its own Boris and his own copy of the order: tests/e2e/fixtures.ts). The offline model
 * answers in Russian, and the app's chrome (the confirm card, the composer's note) follows the
 * customer's language too.
 */
test.describe("chat: scenarios 2, 4 and 6 (Russian)", () => {
  test("2. «Где заказ 8041?»: the status tool, then an answer in Russian", async ({
    page,
    anna,
  }) => {
    await new SignInPage(page).as(anna);
    const chat = new ChatPage(page);
    await chat.startNewChat();
    const o8041 = anna.order("8041");
    const answer = await chat.ask(`Где заказ ${o8041}?`);
    await expect(answer.getByTestId("tool-activity")).toContainText(`Проверен заказ ${o8041}`);
    await expect(answer).toContainText(`Заказ ${o8041}`);
    await expect(answer).toContainText("в пути");
    await expect(chat.cards).toHaveCount(0);
  });

  test("4. a card for 4410; «Отменить» → cancelled, nothing created", async ({ page, boris }) => {
    await new SignInPage(page).as(boris);
    const chat = new ChatPage(page);
    await chat.startNewChat();
    const o4410 = boris.order("4410");
    const answer = await chat.ask(`Оформите возврат заказа ${o4410}, товар пришёл повреждённым.`);
    await expect(answer).toContainText(`Я подготовил заявку на возврат по заказу ${o4410}`);
    await expect(chat.card.getByTestId("confirm-order")).toContainText(o4410);
    await expect(chat.card.getByRole("heading")).toHaveText("Подтвердите заявку на возврат");
    await expect(chat.card).toContainText("Пришёл повреждённым");
    await expect(chat.card.getByTestId("confirm-countdown")).toContainText(
      /Истекает через \d+:\d\d/,
    );
    await expect(chat.card.getByTestId("confirm-button")).toHaveText("Подтвердить");
    await expect(chat.card.getByTestId("cancel-button")).toHaveText("Отменить");
    await expect(chat.composer).toHaveAttribute("data-mode", "commands");
    await expect(chat.disabledReason).toHaveText(
      "Подтвердите или отмените заявку выше, прежде чем писать новое сообщение.",
    );

    await chat.card.getByTestId("cancel-button").click();
    await expect(chat.card.getByTestId("confirm-outcome")).toHaveText(
      "Вы отказались от этого запроса, поэтому ничего не сделано.",
    );
    await expect(chat.composer).toHaveAttribute("data-mode", "message");
    await page.reload();
    await expect(chat.lastAssistant).toContainText(
      `Вы отменили заявку на возврат по заказу ${o4410}. Ничего не создано.`,
    );
    const orders = new OrdersPage(page);
    await orders.goto();
    await expect(orders.returnBadge(o4410)).toHaveCount(0);
  });

  test("6. «Подтвердить» creates the return for 4410 once", async ({ page, boris }) => {
    await new SignInPage(page).as(boris);
    const chat = new ChatPage(page);
    await chat.startNewChat();
    const o4410 = boris.order("4410");
    await chat.ask(`Создайте заявку на возврат заказа ${o4410}. Причина: брак.`);
    await expect(chat.card).toContainText("Брак");
    await expect(chat.card.getByTestId("confirm-button")).toHaveText("Подтвердить");
    await chat.card.getByTestId("confirm-button").click();
    await expect(chat.card.getByTestId("confirm-outcome")).toHaveText(
      /^Заявка на возврат создана\. Номер заявки: \S+\.$/,
    );

    // The model's next turn knows: asking again brings back the existing request, in Russian.
    const again = await chat.ask(`Оформите возврат заказа ${o4410}, брак.`);
    await expect(again).toContainText(`По заказу ${o4410} уже есть заявка на возврат`);
    await expect(chat.cards).toHaveCount(1);
    await page.reload();
    await expect(chat.assistantMessages.nth(1)).toContainText(
      new RegExp(`Заявка на возврат \\S+ по заказу ${o4410} создана\\.`),
    );
    const orders = new OrdersPage(page);
    await orders.goto();
    await expect(orders.returnBadge(o4410)).toHaveCount(1);
  });

  test("a complaint gets an offer, not a card; «да» to it proposes the return, and «Подтвердить» creates it", async ({
    page,
    boris,
  }) => {
    await new SignInPage(page).as(boris);
    const chat = new ChatPage(page);
    await chat.startNewChat();
    const o4410 = boris.order("4410");
    // A complaint alone is not a request: the assistant offers, nothing is proposed yet.
    const offer = await chat.ask(`Заказ ${o4410} пришёл с трещиной`);
    await expect(offer).toContainText(`Подготовить заявку на возврат заказа ${o4410}`);
    await expect(chat.cards).toHaveCount(0);
    // "Yes" to the offer is the request.
    const yes = await chat.ask("Да, пожалуйста");
    await expect(yes).toContainText(`Я подготовил заявку на возврат по заказу ${o4410}`);
    await expect(chat.card.getByRole("heading")).toHaveText("Подтвердите заявку на возврат");
    await expect(chat.card).toContainText("Пришёл повреждённым");
    await chat.card.getByTestId("confirm-button").click();
    await expect(chat.card.getByTestId("confirm-outcome")).toHaveText(
      /^Заявка на возврат создана\. Номер заявки: \S+\.$/,
    );
    const orders = new OrdersPage(page);
    await orders.goto();
    await expect(orders.returnBadge(o4410)).toHaveCount(1);
  });
});
