import { expect, type Page, test } from "@playwright/test";
import { ChatPage, SignInPage } from "./pages";

/**
 * Markup typed by a customer stays text in a real browser: live (streamed through useChat) and
 * after a reload (server render + hydration). Nothing runs, no dialog opens, no tag or
 * javascript: link appears, and the page is served with the CSP and frame protection.
 * (tests/system/rendering.test.ts covers markup from the model and in a confirm card.)
 */
const HOSTILE = [
  '<img src=x onerror="window.__xss=1;alert(1)">',
  "<script>window.__xss=2</script>",
  "</script><script>window.__xss=3</script>",
  "[click me](javascript:window.__xss=4)",
  "<iframe src=//evil.example></iframe>",
].join(" ");

async function expectInert(page: Page, chat: ChatPage) {
  const user = chat.userMessages.last();
  await expect(user).toContainText('<img src=x onerror="window.__xss=1;alert(1)">');
  await expect(user).toContainText("</script><script>window.__xss=3</script>");
  const log = page.getByTestId("chat-log");
  await expect(log.locator('img[src="x"]')).toHaveCount(0);
  await expect(log.locator("script")).toHaveCount(0);
  await expect(log.locator("iframe")).toHaveCount(0);
  await expect(log.locator('a[href^="javascript:"]')).toHaveCount(0);
  expect(
    await page.evaluate(() => (window as unknown as { __xss?: number }).__xss),
  ).toBeUndefined();
}

test("markup in a message is shown as text, live and after a reload", async ({ page }) => {
  const dialogs: string[] = [];
  page.on("dialog", async (d) => {
    dialogs.push(d.message());
    await d.dismiss();
  });
  await new SignInPage(page).demo("anna");
  const chat = new ChatPage(page);
  await chat.startNewChat();
  await chat.ask(HOSTILE);
  await expectInert(page, chat);

  const reloaded = await page.reload();
  const headers = reloaded?.headers() ?? {};
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["content-security-policy"]).not.toContain("unsafe-eval");
  expect(headers["x-frame-options"]).toBe("DENY");
  await expect(chat.userMessages.last()).toBeVisible();
  await expectInert(page, chat);
  expect(dialogs).toEqual([]);
});
