import { expect, test } from "@playwright/test";
import { AuditPage } from "./audit-pages";
import { ChatPage, OrdersPage, SignInPage } from "./pages";

/**
 * The second write tool end to end: cancelling an order that has not shipped, from the chat, with
 * the same confirm card as a return. Anna cancels her 3004 in English; Boris cancels his 1187 in
 * Russian. No other spec touches these two orders.
 */
test.describe.configure({ mode: "serial" });

test.describe("chat: cancel an order that has not shipped", () => {
  test("Anna asks first (no card), then cancels 3004 with Confirm; the order list shows it cancelled", async ({
    page,
  }) => {
    await new SignInPage(page).demo("anna");
    const chat = new ChatPage(page);
    await chat.startNewChat();

    // Asking is not requesting: a lookup and an answer, no card.
    const asked = await chat.ask("Can I still cancel 3004?");
    await expect(asked).toContainText("it can still be cancelled");
    await expect(chat.cards).toHaveCount(0);

    const answer = await chat.ask("I ordered it by mistake, please cancel 3004");
    await expect(answer).toContainText("I've prepared the cancellation of order 3004");
    await expect(chat.card.getByRole("heading")).toHaveText(
      "Confirm the cancellation of order 3004",
    );
    await expect(chat.card.getByTestId("confirm-items")).toContainText("Cast iron pan");
    await expect(chat.card.getByTestId("confirm-reason")).toHaveText("Ordered by mistake");
    await expect(chat.card.getByTestId("confirm-refund")).toContainText("€45.00");
    await expect(chat.card.getByTestId("confirm-refund")).toContainText("to Visa •••• 4242");
    await expect(chat.card.getByTestId("confirm-warning")).toBeVisible();
    await expect(chat.composer).toHaveAttribute("data-mode", "commands");

    await chat.card.getByTestId("confirm-button").click();
    await expect(chat.card.getByTestId("confirm-outcome")).toHaveText(
      /^Order 3004 is cancelled\. Refund of €45\.00: refunded\. Cancellation ID: CN-\S+\.$/,
    );
    await expect(chat.composer).toHaveAttribute("data-mode", "message");
    // Decided, the card no longer asks: its heading names what it was about, and the
    // "nothing happens until you confirm" sentence is gone.
    await expect(chat.card.getByRole("heading")).toHaveText("Cancellation of order 3004");
    await expect(chat.card).not.toContainText("Nothing happens until you confirm");
    // The assistant's next line agrees with the card: it does not say "will be refunded".
    const note = page.getByText(/^Order 3004 has been cancelled \(cancellation CN-\S+\)\./);
    await expect(note).toContainText("The card above shows how the refund of €45.00 is going.");
    await expect(page.getByText("will be refunded")).toHaveCount(0);

    // The next turn knows: asking again answers with the existing cancellation, no second card.
    const again = await chat.ask("cancel my order 3004");
    await expect(again).toContainText("Order 3004 is already cancelled");
    await expect(chat.cards).toHaveCount(1);

    const orders = new OrdersPage(page);
    await orders.goto();
    await expect(orders.order("3004").getByTestId("order-status")).toHaveText("Cancelled");
  });

  test("Boris asks in Latin letters, then cancels 1187 in Russian: «Подтвердить», then the order list shows it cancelled", async ({
    page,
  }) => {
    await new SignInPage(page).demo("boris");
    const chat = new ChatPage(page);
    await chat.startNewChat();
    // Russian typed in Latin letters is Russian: a lookup, an answer in Russian, no card.
    const asked = await chat.ask("Mozhno li eshche otmenit zakaz 1187?");
    await expect(asked).toContainText("поэтому его можно отменить");
    await expect(chat.cards).toHaveCount(0);
    const answer = await chat.ask("Отмените заказ 1187, пожалуйста");
    await expect(answer).toContainText("Я подготовил отмену заказа 1187");
    await expect(chat.card.getByRole("heading")).toHaveText("Подтвердите отмену заказа 1187");
    await expect(chat.card.getByTestId("confirm-items")).toContainText("Milk frother");
    await expect(chat.card.getByTestId("confirm-refund")).toContainText(/43,90\s€/);
    await expect(chat.card.getByTestId("confirm-button")).toHaveText("Подтвердить");
    await chat.card.getByTestId("confirm-button").click();
    await expect(chat.card.getByTestId("confirm-outcome")).toHaveText(
      /^Заказ 1187 отменён\. Возврат 43,90\s€: деньги возвращены\. Номер отмены: CN-\S+\.$/,
    );
    await page.reload();
    await expect(chat.lastAssistant).toContainText(/Заказ 1187 отменён \(отмена CN-\S+\)/);
    const orders = new OrdersPage(page);
    await orders.goto();
    await expect(orders.order("1187").getByTestId("order-status")).toHaveText("Cancelled");
  });

  test("staff see the cancellations on /audit like any other tool call", async ({ page }) => {
    await new SignInPage(page).demo("staff");
    const audit = new AuditPage(page);
    await audit.goto("?tool=cancel_order");
    await expect(audit.rows.first()).toBeVisible();
    for (const tool of await audit.rows.getByTestId("audit-tool").allTextContents()) {
      expect(tool).toBe("cancel_order");
    }
    await audit.goto("?tool=cancel_order&status=success");
    await expect(audit.rows).toHaveCount(3);
  });
});
