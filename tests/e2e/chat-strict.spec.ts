import { expect, test } from "./fixtures";
import { ChatPage, SignInPage } from "./pages";
import { strictServerURL } from "./servers";

/**
 * Against the strict server (playwright.config.ts): proposals expire after 10 s and a customer
 * may send 3 messages a minute. The fixtures seed each test's customer into that server's own
 * database (tests/e2e/fixtures.ts follows `baseURL`).
 */
test.use({ baseURL: strictServerURL });

test("an expired card says so and gives the composer back; the server agrees", async ({
  page,
  anna,
}) => {
  await new SignInPage(page).as(anna);
  const chat = new ChatPage(page);
  await chat.startNewChat();
  await chat.ask(
    `Create a return request for order ${anna.order("7718")}. The item arrived damaged.`,
  );
  await expect(chat.composer).toHaveAttribute("data-mode", "commands");
  await expect(chat.card.getByTestId("confirm-countdown")).toBeVisible();

  // The countdown reaches zero by itself: no clicks, no clock tricks.
  await expect(chat.card.getByTestId("confirm-outcome")).toHaveText(/^This offer expired\./, {
    timeout: 30_000,
  });
  await expect(chat.card.getByTestId("confirm-button")).toHaveCount(0);
  await expect(chat.disabledReason).toHaveCount(0);
  await expect(chat.composer).toHaveAttribute("data-mode", "message");

  // The server applies expiry lazily and accepts the next message.
  const answer = await chat.ask(`Where is order ${anna.order("8041")}?`);
  await expect(answer).toContainText(`Order ${anna.order("8041")}`);
  await expect(chat.error).toHaveCount(0);

  await page.reload();
  await expect(chat.card).toHaveAttribute("data-state", "expired");
  await expect(chat.card.getByTestId("confirm-outcome")).toHaveText(/^This offer expired\./);
});

test("sending too fast: the limit is explained with when to retry, and the text is kept", async ({
  page,
  boris,
}) => {
  await new SignInPage(page).as(boris);
  const chat = new ChatPage(page);
  await chat.startNewChat();
  const o2255 = boris.order("2255");
  for (const text of ["Hello!", `Where is order ${o2255}?`, "What is your return policy?"]) {
    await chat.ask(text);
  }
  const fourth = `Where is order ${boris.order("4410")}?`;
  await chat.send(fourth);
  await expect(chat.error).toHaveAttribute("data-kind", "rate_limited");
  await expect(chat.error).toContainText(/You can send again in \d+ seconds?\./);
  await expect(chat.composer).toHaveValue(fourth);
  await expect(chat.sendButton).toBeDisabled();
  await expect(chat.userMessages).toHaveCount(3);
});
