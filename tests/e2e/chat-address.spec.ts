import { expect, test } from "./fixtures";
import { ChatPage, OrdersPage, SignInPage } from "./pages";

/**
 * The third write tool end to end in Chromium: a new delivery address for an order that has not
 * shipped, from the chat, on the same confirm card as every write tool, with the old and the new
 * address side by side, the new one given without the recipient's name (the order's stays, and
 * the card shows it). Anna in English, Boris in Russian, each with orders of their own
 * (tests/e2e/fixtures.ts). No webhook is configured for the e2e server: the change is made, and
 * the card says so without a warehouse step.
 */
test.describe("chat: change the delivery address of an order that has not shipped", () => {
  test("Anna asks first (no card), then moves 3004 to a new address with Confirm; the orders page shows it", async ({
    page,
    anna,
  }) => {
    const id = anna.order("3004");
    await new SignInPage(page).as(anna);
    const chat = new ChatPage(page);
    await chat.startNewChat();

    const asked = await chat.ask(`Can I still change the delivery address of ${id}?`);
    await expect(asked).toContainText("its delivery address can still be changed");
    await expect(chat.cards).toHaveCount(0);

    // A missing address gets one question, and the answer to it proposes.
    const question = await chat.ask(`Please change the delivery address of ${id}`);
    await expect(question).toContainText(`What is the new delivery address for order ${id}?`);
    await expect(chat.cards).toHaveCount(0);
    // Without the recipient's name, as people write it: the order's recipient stays.
    const answer = await chat.ask("Torstraße 1, 3. OG, 10119 Berlin, Germany");
    await expect(answer).toContainText(
      `I've prepared the change of delivery address for order ${id}`,
    );
    await expect(chat.card.getByRole("heading")).toHaveText(
      `Confirm the new delivery address of order ${id}`,
    );
    await expect(chat.card.getByTestId("confirm-address-from")).toContainText(
      "Anna Petrova, Hauptstraße 12, 10115 Berlin, DE",
    );
    await expect(chat.card.getByTestId("confirm-address-to")).toContainText(
      "Anna Petrova, Torstraße 1, 3. OG, 10119 Berlin, DE",
    );
    await chat.card.getByTestId("confirm-button").click();
    await expect(chat.card.getByTestId("confirm-outcome")).toHaveText(
      new RegExp(
        `^The delivery address of order ${id} is now Anna Petrova, Torstraße 1, 3\\. OG, 10119 Berlin, DE\\. Change ID: AC-\\S+\\.$`,
      ),
    );
    // The assistant's next line says what was done, without a reload.
    await expect(
      page.getByText(new RegExp(`^Order ${id} will be delivered to Anna Petrova, Torstraße 1`)),
    ).toBeVisible();

    const orders = new OrdersPage(page);
    await orders.goto();
    await expect(orders.order(id).getByTestId("order-address")).toContainText(
      "Torstraße 1, 3. OG, 10119 Berlin, DE",
    );
  });

  test("Anna edits the new address on the card before confirming; the outcome shows the edited one", async ({
    page,
    anna,
  }) => {
    const id = anna.order("3004");
    await new SignInPage(page).as(anna);
    const chat = new ChatPage(page);
    await chat.startNewChat();
    await chat.ask(`Please change the delivery address of ${id}`);
    await chat.ask("Torstraße 1, 3. OG, 10119 Berlin, Germany");
    const first = chat.card;
    const firstId = await first.getAttribute("data-action-id");

    // The form offers the address line by line (the tool's editable), filled with the proposal.
    await first.getByTestId("edit-button").click();
    await expect(first.getByLabel("Street and number")).toHaveValue("Torstraße 1");
    await expect(first.getByLabel("City")).toHaveValue("Berlin");
    await first.getByLabel("Street and number").fill("Rosenthaler Straße 40");
    await first.getByLabel("Address line 2").fill("");
    await first.getByLabel("Postal code").fill("10178");
    await first.getByTestId("edit-save").click();

    await expect(chat.cards).toHaveCount(2);
    const edited = chat.card;
    await expect(edited).not.toHaveAttribute("data-action-id", firstId!);
    await expect(edited.getByTestId("confirm-address-to")).toContainText(
      "Anna Petrova, Rosenthaler Straße 40, 10178 Berlin, DE",
    );
    await edited.getByTestId("confirm-button").click();
    await expect(edited.getByTestId("confirm-outcome")).toHaveText(
      new RegExp(
        `^The delivery address of order ${id} is now Anna Petrova, Rosenthaler Straße 40, 10178 Berlin, DE\\. Change ID: AC-\\S+\\.$`,
      ),
    );
  });

  test("Boris moves 1187 in Russian: «Подтвердить», then the orders page shows the new address", async ({
    page,
    boris,
  }) => {
    const id = boris.order("1187");
    await new SignInPage(page).as(boris);
    const chat = new ChatPage(page);
    await chat.startNewChat();
    const answer = await chat.ask(
      `Смените адрес доставки заказа ${id} на Ringstraße 5, 1010 Wien, Австрия`,
    );
    await expect(answer).toContainText(`Я подготовил смену адреса доставки заказа ${id}`);
    await expect(chat.card.getByRole("heading")).toHaveText(
      `Подтвердите новый адрес доставки заказа ${id}`,
    );
    await expect(chat.card.getByTestId("confirm-address-from")).toContainText(
      "Boris Ivanov, Mariahilfer Straße 45, Top 7, 1060 Wien, AT",
    );
    await expect(chat.card.getByTestId("confirm-address-to")).toContainText(
      "Boris Ivanov, Ringstraße 5, 1010 Wien, AT",
    );
    await expect(chat.card.getByTestId("confirm-button")).toHaveText("Подтвердить");
    await chat.card.getByTestId("confirm-button").click();
    await expect(chat.card.getByTestId("confirm-outcome")).toContainText(
      `Адрес доставки заказа ${id} теперь Boris Ivanov, Ringstraße 5, 1010 Wien, AT`,
    );
    // The assistant says so too, without a reload, and the card no longer asks.
    await expect(page.getByText(`Заказ ${id} доставят по адресу`)).toBeVisible();
    await expect(chat.card.getByRole("heading")).toHaveText(`Новый адрес доставки заказа ${id}`);
    const orders = new OrdersPage(page);
    await orders.goto();
    await expect(orders.order(id).getByTestId("order-address")).toContainText(
      "Ringstraße 5, 1010 Wien, AT",
    );
  });
});
