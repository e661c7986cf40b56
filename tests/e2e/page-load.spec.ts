import { expect, test } from "./fixtures";
import { ChatPage, SignInPage } from "./pages";

/**
 * What Lighthouse found on the first load of the customer's pages (docs/benchmarks.md,
 * "Lighthouse"), held in a real browser: /chat costs no redirect, and a chat with an open card
 * loads and streams without a single Content-Security-Policy report.
 */

test("/chat answers with the newest chat itself, not a redirect, and the address bar names it", async ({
  page,
  anna,
}) => {
  await new SignInPage(page).as(anna);
  const newest = await new ChatPage(page).startNewChat();

  const res = await page.request.get("/chat", { maxRedirects: 0 });
  expect(res.status()).toBe(200);
  expect(res.headers().location).toBeUndefined();
  const html = await res.text();
  expect(html).toContain('data-testid="chat-empty"');
  expect(html).toContain(newest);

  await page.goto("/chat");
  await expect(page).toHaveURL(new RegExp(`/chat/${newest}$`));
  await expect(page.getByTestId("chat-empty")).toBeVisible();
  // The router follows the rewritten address: a new chat from here is a normal navigation.
  await page.getByTestId("new-chat").click();
  await expect(page).not.toHaveURL(new RegExp(`/chat/${newest}$`));
  await expect(page.getByTestId("chat-empty")).toBeVisible();
});

test("a chat with an open confirm card streams and reloads with no CSP report", async ({
  page,
  anna,
}) => {
  // Every report, including those of eval probes a library catches itself (no console line).
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener("securitypolicyviolation", (e) => {
      w.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  const reports = () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
  await new SignInPage(page).as(anna);
  const chat = new ChatPage(page);
  await chat.startNewChat();
  await chat.ask(
    `Create a return request for order ${anna.order("7718")}. The item arrived damaged.`,
  );
  await expect(chat.cards).toHaveCount(1);
  expect(await reports()).toEqual([]);

  await page.reload();
  await expect(chat.cards).toHaveCount(1);
  // Hydrated: the card's countdown ticks in the browser.
  const countdown = page.getByTestId("confirm-countdown");
  const first = await countdown.textContent();
  await expect(countdown).not.toHaveText(first ?? "");
  expect(await reports()).toEqual([]);
});
