import fs from "node:fs";
import path from "node:path";
import { expectNoSeriousA11yViolations } from "./a11y";
import { expect, test } from "./fixtures";
import { ChatPage, OrdersPage, SignInPage, screenshot as shot } from "./pages";

/**
 * Accessibility (axe), keyboard use, the 375 px layout and the screenshots of the main states,
 * each test with its own customer (tests/e2e/fixtures.ts).
 */

test("sign-in and orders pages have no serious accessibility violations", async ({
  page,
  anna,
}, testInfo) => {
  await new SignInPage(page).goto();
  await expectNoSeriousA11yViolations(page, { testInfo, name: "sign-in" });
  await new SignInPage(page).as(anna);
  await new OrdersPage(page).goto();
  await expectNoSeriousA11yViolations(page, { testInfo, name: "orders" });
  // The orders list stays reachable from the chat, through the header.
  await page.getByTestId("nav-chat").click();
  await expect(page).toHaveURL(/\/chat\/[^/]+$/);
  await page.getByRole("link", { name: "Orders" }).click();
  await expect(page.getByTestId("order-list")).toBeVisible();
});

test("chat by keyboard, with an open card checked by axe; screenshots of the main states", async ({
  page,
  boris,
}, testInfo) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await new SignInPage(page).as(boris);
  const chat = new ChatPage(page);
  await chat.startNewChat();
  await shot(page, testInfo, "1-empty-chat");

  // Shift+Enter is a new line, Enter sends.
  await chat.composer.click();
  await page.keyboard.type("Hello!");
  await page.keyboard.press("Shift+Enter");
  const o2255 = boris.order("2255");
  await page.keyboard.type(`Where is order ${o2255}?`);
  await expect(chat.composer).toHaveValue(`Hello!\nWhere is order ${o2255}?`);
  await chat.composer.fill(`Where is order ${o2255}?`);
  await page.keyboard.press("Enter");
  await expect(chat.lastAssistant).toContainText(`Order ${o2255}`);
  await expect(chat.typing).toHaveCount(0);
  await expect(page.getByRole("log", { name: "Conversation" })).toBeVisible();
  await shot(page, testInfo, "2-answer");

  await chat.composer.fill(
    `Create a return request for order ${boris.order("4410")}. The item arrived damaged.`,
  );
  await page.keyboard.press("Enter");
  await expect(chat.card).toBeFocused();
  await expect(chat.disabledReason).toBeVisible();
  await expectNoSeriousA11yViolations(page, { testInfo, name: "chat-with-card" });
  await shot(page, testInfo, "3-card");
  if (process.env.UPDATE_DOCS_SCREENSHOTS) {
    // The README's picture: `UPDATE_DOCS_SCREENSHOTS=1 npx playwright test tests/e2e/chat-a11y.spec.ts`.
    const docs = path.join(process.cwd(), "docs/screenshots/chat-card.png");
    fs.mkdirSync(path.dirname(docs), { recursive: true });
    await page.screenshot({ path: docs, animations: "disabled" });
  }

  // From the card, Tab reaches Confirm then Cancel; Space on Cancel decides.
  await page.keyboard.press("Tab");
  await expect(chat.card.getByTestId("confirm-button")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(chat.card.getByTestId("cancel-button")).toBeFocused();
  await page.keyboard.press("Space");
  await expect(chat.card.getByTestId("confirm-outcome")).toBeFocused();
  await expect(chat.card.getByTestId("confirm-outcome")).toHaveText(
    "You declined this request, so nothing was done.",
  );
  await expect(chat.composer).toHaveAttribute("data-mode", "message");
});

test("at 375 px the chat fits the screen and the card is usable", async ({
  page,
  boris,
}, testInfo) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await new SignInPage(page).as(boris);
  const chat = new ChatPage(page);
  await chat.startNewChat();
  await chat.ask(
    `Create a return request for order ${boris.order("4410")}. The item arrived damaged.`,
  );
  await expect(chat.card).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBe(0);
  const box = await chat.card.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
  await shot(page, testInfo, "4-mobile-card");

  // The chat list is one tap away on a phone.
  await expect(page.getByTestId("chat-list")).toBeHidden();
  await page.getByRole("button", { name: "Chats" }).click();
  await expect(page.getByTestId("chat-list-item").first()).toBeVisible();
  await expect(page.getByTestId("chat-list-item").first()).toHaveAttribute("aria-current", "page");

  await chat.card.getByTestId("cancel-button").click();
  await expect(chat.card.getByTestId("confirm-outcome")).toHaveText(
    "You declined this request, so nothing was done.",
  );
});
