import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
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

test("markup in a message is shown as text, live and after a reload", async ({ page, anna }) => {
  const dialogs: string[] = [];
  page.on("dialog", async (d) => {
    dialogs.push(d.message());
    await d.dismiss();
  });
  await new SignInPage(page).as(anna);
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

test("the CSP lets the app's own scripts run and blocks injected inline script", async ({
  page,
  anna,
}) => {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  const res = await page.goto("/sign-in");
  const csp = res?.headers()["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'/);
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  // The app hydrates and works under the policy: sign in and open a chat.
  await new SignInPage(page).as(anna);
  await new ChatPage(page).startNewChat();
  expect(violations).toEqual([]);
  // A nonce is per page view, never reused.
  const again = (await page.reload())?.headers()["content-security-policy"] ?? "";
  expect(again).not.toBe(csp);
  // Markup that somehow reached the DOM cannot run: inline handlers have no nonce.
  await page.evaluate(() => {
    document.body.insertAdjacentHTML(
      "beforeend",
      '<img src="/no-such-image" onerror="window.__csp=1">',
    );
  });
  await expect.poll(() => violations.length).toBeGreaterThan(0);
  expect(
    await page.evaluate(() => (window as unknown as { __csp?: number }).__csp),
  ).toBeUndefined();
});

/**
 * After sign-in the browser follows `?next=`, and these start with one slash
 * but resolve (or decode) to `//example.org`. Each is sent as an attacker would link it (as is in
 * the query) and percent-encoded once; example.org is answered locally, so a redirect there
 * shows up as that page instead of a network error.
 */
const OFF_SITE_NEXT = ["/.//example.org/", "/./%2F%2Fexample.org/", "/.%2F/example.org"];

test("sign-in never sends the browser to another site, however `next` is written", async ({
  page,
  anna,
  baseURL,
}) => {
  const elsewhere: string[] = [];
  await page.route(
    (url) => url.hostname === "example.org",
    async (route) => {
      elsewhere.push(route.request().url());
      await route.fulfill({ contentType: "text/html", body: "<h1>example.org</h1>" });
    },
  );
  const signIn = new SignInPage(page);
  for (const next of OFF_SITE_NEXT.flatMap((v) => [v, encodeURIComponent(v)])) {
    await page.context().clearCookies();
    await page.goto(`/sign-in?next=${next}`);
    await signIn.signInWith(anna.email, anna.password);
    await expect(page.getByTestId("sign-out"), next).toBeVisible();
    // The redirect to `next` may land after the home page has shown: let navigation settle.
    await page.waitForLoadState("networkidle");
    expect(elsewhere, next).toEqual([]);
    expect(new URL(page.url()).host, next).toBe(new URL(baseURL!).host);
  }
});
