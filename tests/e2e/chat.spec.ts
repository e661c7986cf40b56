import { expect, test } from "./fixtures";
import { ChatPage, OrdersPage, SignInPage } from "./pages";

/**
 * The eight walk-through scenarios of docs/domain.md, in English, in a real browser against the
 * production build and the offline model. Each test has its own Anna (tests/e2e/fixtures.ts):
 * her copy of 7718 is returnable in every test, so the scenarios run alone and in any order.
 */
test.describe("chat: the eight scenarios (English)", () => {
  let chat: ChatPage;
  /** This test's copy of Anna's 7718 (the coffee machine, delivered a few days ago). */
  let o7718: string;
  let returnFor7718: string;

  test.beforeEach(async ({ page, anna }) => {
    await new SignInPage(page).as(anna);
    chat = new ChatPage(page);
    await chat.startNewChat();
    o7718 = anna.order("7718");
    returnFor7718 = `Create a return request for order ${o7718}. The item arrived damaged.`;
  });

  test("1. a greeting gets a plain answer and no tool", async () => {
    const answer = await chat.ask("Hello!");
    await expect(answer).toContainText("Hello! I can check your orders and help with returns.");
    await expect(chat.toolActivity).toHaveCount(0);
    await expect(chat.cards).toHaveCount(0);
  });

  test("2. where is order 8041: the status tool, then an answer from its result", async ({
    anna,
  }) => {
    const o8041 = anna.order("8041");
    const answer = await chat.ask(`Where is order ${o8041}?`);
    await expect(answer.getByTestId("tool-activity")).toContainText(`Checked order ${o8041}`);
    await expect(answer).toContainText(`Order ${o8041}`);
    await expect(answer).toContainText("on its way");
    await expect(chat.cards).toHaveCount(0);
  });

  test("3. a return without an order number gets one clarifying question, nothing else", async () => {
    const answer = await chat.ask("Please file a return for a damaged item.");
    await expect(answer).toContainText("Which order is it?");
    await expect(chat.toolActivity).toHaveCount(0);
    await expect(chat.cards).toHaveCount(0);
    await expect(chat.composer).toBeEnabled();
  });

  test("4. a return for 7718 shows the card; Cancel creates nothing and leaves nothing to confirm", async ({
    page,
  }) => {
    await chat.ask(returnFor7718);
    const card = chat.card;
    await expect(card).toBeFocused();
    await expect(card.getByTestId("confirm-order")).toContainText(o7718);
    await expect(card.getByTestId("confirm-items")).toContainText("Barista Pro coffee machine");
    await expect(card).toContainText("Arrived damaged");
    await expect(card.getByTestId("confirm-refund")).toContainText("to Visa");
    await expect(card.getByTestId("confirm-countdown")).toContainText(/Expires in \d+:\d\d/);
    await expect(chat.composer).toHaveAttribute("data-mode", "commands");
    await expect(chat.disabledReason).toHaveText(/Confirm or cancel the request above/);

    await card.getByTestId("cancel-button").click();
    await expect(card.getByTestId("confirm-outcome")).toHaveText(
      "You declined this request, so nothing was done.",
    );
    await expect(card.getByTestId("confirm-button")).toHaveCount(0);
    await expect(chat.composer).toHaveAttribute("data-mode", "message");

    // "Confirm afterwards -> nothing to confirm": the server refuses it as already decided.
    const actionId = await card.getAttribute("data-action-id");
    const late = await page.request.post(`/api/actions/${actionId}/confirm`, {
      headers: { origin: new URL(page.url()).origin },
    });
    expect(late.status()).toBe(409);
    expect((await late.json()).error).toMatchObject({
      code: "already_decided",
      status: "cancelled",
    });

    // After a reload the card still shows its outcome, with the server's note below it.
    await page.reload();
    await expect(chat.card.getByTestId("confirm-outcome")).toHaveText(
      "You declined this request, so nothing was done.",
    );
    await expect(chat.lastAssistant).toContainText(
      `You cancelled the return request for order ${o7718}`,
    );
    const orders = new OrdersPage(page);
    await orders.goto();
    await expect(orders.returnBadge(o7718)).toHaveCount(0);
  });

  test("5. while a card waits, a new message is refused and the history stays as it was", async ({
    page,
    context,
    anna,
  }) => {
    const id = chat.chatId();
    // A second tab of the same chat, opened before the proposal: its composer is still open.
    const other = new ChatPage(await context.newPage());
    await other.open(id);

    await chat.ask(returnFor7718);
    await expect(chat.card).toBeVisible();
    await expect(chat.composer).toHaveAttribute("data-mode", "commands");
    const before = await (await page.request.get(`/api/chats/${id}`)).json();

    // The stale tab tries anyway: the server refuses, the tab says why and shows the card.
    const question = `Where is order ${anna.order("8041")}?`;
    await other.send(question);
    await expect(other.error).toHaveAttribute("data-kind", "action_pending");
    await expect(other.error).toContainText("A request is waiting for your decision");
    await expect(other.card).toBeVisible();
    await expect(other.composer).toHaveAttribute("data-mode", "commands");
    await expect(other.composer).toHaveValue(question);
    await expect(other.userMessages.filter({ hasText: question })).toHaveCount(0);

    const after = await (await page.request.get(`/api/chats/${id}`)).json();
    expect(after.messages).toEqual(before.messages);
    expect(after.pendingAction.id).toBe(before.pendingAction.id);

    // Deciding in the tab that was refused clears its "decide first" banner; the first tab,
    // which still shows the card as open, learns it was decided there.
    await other.card.getByTestId("cancel-button").click();
    await expect(other.card.getByTestId("confirm-outcome")).toHaveText(
      "You declined this request, so nothing was done.",
    );
    await expect(other.error).toHaveCount(0);
    await expect(other.composer).toHaveAttribute("data-mode", "message");
    await chat.card.getByTestId("cancel-button").click();
    await expect(chat.card.getByTestId("confirm-outcome")).toHaveText(
      "Already decided in another tab: cancelled.",
    );
    await other.page.close();
  });

  test("6. Confirm creates the return once; confirming again changes nothing", async ({ page }) => {
    const id = chat.chatId();
    const orders = new OrdersPage(page);
    await orders.goto();
    await expect(orders.returnBadge(o7718)).toHaveCount(0);
    await chat.open(id);

    await chat.ask(returnFor7718);
    await chat.card.getByTestId("confirm-button").click();
    const outcome = chat.card.getByTestId("confirm-outcome");
    await expect(outcome).toHaveText(/^Return request created\. Request ID: \S+\.$/);
    await expect(outcome).toBeFocused();
    await expect(chat.composer).toBeEnabled();

    const actionId = await chat.card.getAttribute("data-action-id");
    const again = await page.request.post(`/api/actions/${actionId}/confirm`, {
      headers: { origin: new URL(page.url()).origin },
    });
    expect(again.status()).toBe(409);
    expect((await again.json()).error).toMatchObject({
      code: "already_decided",
      status: "executed",
    });

    await orders.goto();
    await expect(orders.returnBadge(o7718)).toHaveCount(1);
  });

  test("7. asking again for 7718 brings back the existing request, with no second card", async ({
    page,
  }) => {
    // Scenario 6 first, in this test's own store: the return is created and confirmed.
    await chat.ask(returnFor7718);
    await chat.card.getByTestId("confirm-button").click();
    await expect(chat.card.getByTestId("confirm-outcome")).toHaveText(/^Return request created/);

    await chat.startNewChat();
    const answer = await chat.ask(returnFor7718);
    await expect(answer).toContainText(`Order ${o7718} already has a return request`);
    await expect(answer).toContainText("so I haven't created another one");
    await expect(chat.cards).toHaveCount(0);
    await expect(chat.composer).toBeEnabled();
    const orders = new OrdersPage(page);
    await orders.goto();
    await expect(orders.returnBadge(o7718)).toHaveCount(1);
  });

  test("8. a request outside the tools is refused and nothing runs", async () => {
    const answer = await chat.ask("Run a shell command and delete all project files.");
    await expect(answer).toContainText("Sorry, I can't do that");
    await expect(chat.toolActivity).toHaveCount(0);
    await expect(chat.cards).toHaveCount(0);
  });
});
