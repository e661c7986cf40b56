import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { ChatPage, SignInPage } from "./pages";

/**
 * The console's commands in the browser composer. They are handled in the
 * page and never sent as a message (so the model never sees them); while a card waits, only
 * they are accepted and other text keeps the "decide first" note; what a command did is said in
 * a live region, in the conversation's language. Each test has its own customer and orders.
 */

/** The chat as the server stored it: nothing typed as a command may be in it. */
async function storedText(page: Page, chatId: string): Promise<string> {
  const r = await page.request.get(`/api/chats/${chatId}`);
  expect(r.status()).toBe(200);
  return JSON.stringify((await r.json()).messages);
}

test("/help, /confirm with nothing pending and unknown commands are answered in the page", async ({
  page,
  anna,
}) => {
  await new SignInPage(page).as(anna);
  const chat = new ChatPage(page);
  const id = await chat.startNewChat();
  await expect(chat.hint).toHaveText("Commands: /confirm, /cancel, /new, /help");
  await expect(chat.feedback).toHaveAttribute("aria-live", "polite");
  await expect(chat.composer).toHaveAttribute("data-mode", "message");

  await chat.send("/help");
  await expect(chat.feedback).toContainText("/confirm confirms the request waiting above.");
  for (const c of ["/cancel", "/new", "/help"]) await expect(chat.feedback).toContainText(c);
  await expect(chat.composer).toHaveValue("");

  await chat.send("/confirm");
  await expect(chat.feedback).toHaveText(
    "Nothing to decide: no request is waiting for your confirmation in this chat.",
  );
  await chat.send("/frobnicate");
  await expect(chat.feedback).toHaveText("Unknown command /frobnicate. Type /help for the list.");
  // The terminal's staff command is not one of the browser's.
  await chat.send("/analyze");
  await expect(chat.feedback).toHaveText("Unknown command /analyze. Type /help for the list.");

  await expect(chat.userMessages).toHaveCount(0);
  await expect(chat.assistantMessages).toHaveCount(0);
  expect(await storedText(page, id)).not.toMatch(/\/(help|confirm|frobnicate|analyze)/);
});

test("while a card waits only commands are accepted; /cancel decides it like the button", async ({
  page,
  boris,
}) => {
  await new SignInPage(page).as(boris);
  const chat = new ChatPage(page);
  const id = await chat.startNewChat();
  const order = boris.order("4410");
  await chat.ask(`Create a return request for order ${order}. The item arrived damaged.`);
  await expect(chat.card).toHaveAttribute("data-state", "pending");
  await expect(chat.composer).toHaveAttribute("data-mode", "commands");
  await expect(chat.disabledReason).toHaveText(
    "Confirm or cancel the request above before sending a new message.",
  );

  // Ordinary text: not sent, kept in the box, and the note is said again.
  await chat.composer.fill("Where is my other order?");
  await expect(chat.sendButton).toBeDisabled();
  await chat.composer.press("Enter");
  await expect(chat.feedback).toHaveText(
    "Confirm or cancel the request above before sending a new message.",
  );
  await expect(chat.composer).toHaveValue("Where is my other order?");
  await expect(chat.userMessages).toHaveCount(1);

  await chat.composer.fill("/cancel");
  await expect(chat.sendButton).toBeEnabled();
  await chat.composer.press("Enter");
  await expect(chat.card.getByTestId("confirm-outcome")).toHaveText(
    "You declined this request, so nothing was done.",
  );
  await expect(chat.feedback).toHaveText("You declined this request, so nothing was done.");
  await expect(chat.composer).toHaveAttribute("data-mode", "message");
  await expect(chat.disabledReason).toHaveCount(0);

  await chat.send("/cancel");
  await expect(chat.feedback).toHaveText(/^Nothing to decide/);

  // The server agrees: the action is cancelled, and no command or refused text was stored.
  await page.reload();
  await expect(chat.card).toHaveAttribute("data-state", "cancelled");
  const stored = await storedText(page, id);
  expect(stored).not.toMatch(/\/(cancel|confirm)/);
  expect(stored).not.toContain("Where is my other order?");
});

test("in a Russian chat, /confirm creates the return and says so in Russian", async ({
  page,
  boris,
}) => {
  await new SignInPage(page).as(boris);
  const chat = new ChatPage(page);
  await chat.startNewChat();
  const order = boris.order("4410");
  await chat.ask(`Оформите возврат заказа ${order}, товар пришёл повреждённым.`);
  await expect(chat.card).toHaveAttribute("data-state", "pending");
  // The composer's chrome follows the chat's language, the command names stay as typed.
  await expect(chat.hint).toHaveText("Команды: /confirm, /cancel, /new, /help");
  await expect(chat.hint.locator('code[translate="no"]')).toHaveCount(4);

  await chat.composer.fill("Где мой заказ?");
  await chat.composer.press("Enter");
  await expect(chat.feedback).toHaveText(
    "Подтвердите или отмените заявку выше, прежде чем писать новое сообщение.",
  );

  await chat.send("/help");
  await expect(chat.feedback).toContainText("/confirm подтверждает заявку");
  await chat.send("/confirm");
  await expect(chat.card.getByTestId("confirm-outcome")).toHaveText(
    /^Заявка на возврат создана\. Номер заявки: RR-\S+\.$/,
  );
  await expect(chat.feedback).toHaveText(/^Заявка на возврат создана\. Номер заявки: RR-\S+\.$/);
  await expect(chat.feedback.locator('[translate="no"]')).toHaveText(/^RR-\S+$/);
  await expect(chat.composer).toHaveAttribute("data-mode", "message");
  await expect(chat.userMessages).toHaveCount(1);
});

test("/new while a card waits starts a new chat, and the server withdraws the card", async ({
  page,
  context,
  anna,
}) => {
  await new SignInPage(page).as(anna);
  const chat = new ChatPage(page);
  const before = await chat.startNewChat();
  await chat.ask(`Create a return request for order ${anna.order("7718")}. It arrived damaged.`);
  await expect(chat.card).toHaveAttribute("data-state", "pending");

  await chat.send("/new");
  await expect(page).not.toHaveURL(new RegExp(`/chat/${before}$`));
  await expect(page.getByTestId("chat-empty")).toBeVisible();
  await expect(chat.composer).toHaveAttribute("data-mode", "message");

  const old = new ChatPage(await context.newPage());
  await old.open(before);
  await expect(old.card).toHaveAttribute("data-state", "superseded");
  expect(await storedText(page, before)).not.toContain("/new");
});
