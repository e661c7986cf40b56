import { expect, test } from "@playwright/test";
import { ChatPage, SignInPage } from "./pages";
import { strictServerURL } from "./servers";

/**
 * Against the strict server (playwright.config.ts): proposals expire after 3 s and a customer
 * may send 3 messages a minute. Its database is its own, so 7718 is free here.
 */
test.use({ baseURL: strictServerURL });

test("an expired card says so and gives the composer back; the server agrees", async ({ page }) => {
  await new SignInPage(page).demo("anna");
  const chat = new ChatPage(page);
  await chat.startNewChat();
  await chat.ask("Create a return request for order 7718. The item arrived damaged.");
  await expect(chat.composer).toBeDisabled();
  await expect(chat.card.getByTestId("confirm-countdown")).toBeVisible();

  // The countdown reaches zero by itself (3 s): no clicks, no clock tricks.
  await expect(chat.card.getByTestId("confirm-outcome")).toHaveText(/^This offer expired\./);
  await expect(chat.card.getByTestId("confirm-button")).toHaveCount(0);
  await expect(chat.disabledReason).toHaveCount(0);
  await expect(chat.composer).toBeEnabled();

  // The server applies expiry lazily and accepts the next message.
  const answer = await chat.ask("Where is order 8041?");
  await expect(answer).toContainText("Order 8041");
  await expect(chat.error).toHaveCount(0);

  await page.reload();
  await expect(chat.card).toHaveAttribute("data-state", "expired");
  await expect(chat.card.getByTestId("confirm-outcome")).toHaveText(/^This offer expired\./);
});

test("sending too fast: the limit is explained with when to retry, and the text is kept", async ({
  page,
}) => {
  await new SignInPage(page).demo("boris");
  const chat = new ChatPage(page);
  await chat.startNewChat();
  for (const text of ["Hello!", "Where is order 2255?", "What is your return policy?"]) {
    await chat.ask(text);
  }
  await chat.send("Where is order 4410?");
  await expect(chat.error).toHaveAttribute("data-kind", "rate_limited");
  await expect(chat.error).toContainText(/You can send again in \d+ seconds?\./);
  await expect(chat.composer).toHaveValue("Where is order 4410?");
  await expect(chat.sendButton).toBeDisabled();
  await expect(chat.userMessages).toHaveCount(3);
});
