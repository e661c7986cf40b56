import { expect, test } from "./fixtures";
import { ChatPage, OrdersPage, SignInPage, screenshot } from "./pages";

/**
 * Confirm-card robustness on Anna's order 9307 (returnable, and its delivery note carries a
 * prompt injection): a reload keeps the open card, a double click sends one confirm, and a
 * second tab that confirms afterwards is told the request was already decided, without an error
 * page. Each test has its own customer and orders (tests/e2e/fixtures.ts).
 */
test("reload keeps the card; a double click confirms once; a second tab sees 'already decided'", async ({
  page,
  context,
  anna,
}, testInfo) => {
  await new SignInPage(page).as(anna);
  const chat = new ChatPage(page);
  const id = await chat.startNewChat();
  const o9307 = anna.order("9307");
  await chat.ask(`Create a return request for order ${o9307}. It is defective.`);
  await expect(chat.card.getByTestId("confirm-order")).toContainText(o9307);

  await page.reload();
  await expect(chat.card).toBeVisible();
  await expect(chat.card).toHaveAttribute("data-state", "pending");
  await expect(chat.card).toBeFocused();
  await expect(chat.composer).toHaveAttribute("data-mode", "commands");

  const second = new ChatPage(await context.newPage());
  await second.open(id);
  await expect(second.card.getByTestId("confirm-button")).toBeEnabled();

  const confirms: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && /\/api\/actions\/[^/]+\/confirm$/.test(r.url()))
      confirms.push(r.url());
  });
  // Two clicks in one task, before React re-renders the button as disabled: a fast double click
  // on a slow device. Only the card's ref guard can stop the second one.
  await chat.card.getByTestId("confirm-button").evaluate((button: HTMLButtonElement) => {
    button.click();
    button.click();
  });
  await expect(chat.card.getByTestId("confirm-outcome")).toHaveText(
    /^Return request created\. Request ID: \S+\.$/,
  );
  expect(confirms).toHaveLength(1);
  await screenshot(page, testInfo, "5-confirmed");

  await second.card.getByTestId("confirm-button").click();
  await expect(second.card.getByTestId("confirm-outcome")).toHaveText(
    "Already decided in another tab: confirmed.",
  );
  await expect(second.page.getByTestId("chat-log")).toBeVisible();
  await expect(second.composer).toHaveAttribute("data-mode", "message");

  const orders = new OrdersPage(page);
  await orders.goto();
  await expect(orders.returnBadge(o9307)).toHaveCount(1);
});

test("a card retired by a new chat says so when clicked, without an error page", async ({
  page,
  context,
  boris,
}) => {
  await new SignInPage(page).as(boris);
  const chat = new ChatPage(page);
  await chat.startNewChat();
  await chat.ask(
    `Create a return request for order ${boris.order("4410")}. The item arrived damaged.`,
  );
  await expect(chat.composer).toHaveAttribute("data-mode", "commands");

  // Starting a new chat elsewhere supersedes the proposal waiting here.
  const elsewhere = new ChatPage(await context.newPage());
  await elsewhere.startNewChat();

  await chat.card.getByTestId("confirm-button").click();
  await expect(chat.card.getByTestId("confirm-outcome")).toHaveText(
    "No longer valid: a newer request or a new chat replaced it. Nothing was created.",
  );
  await expect(chat.composer).toHaveAttribute("data-mode", "message");
  await page.reload();
  await expect(chat.card).toHaveAttribute("data-state", "superseded");
});
