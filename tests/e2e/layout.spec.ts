import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { ChatPage, SignInPage, signOut } from "./pages";

/**
 * The header's row: its edges line up with the page below it (a centred column on the orders
 * and audit pages, the whole window on the chat), and on a 375 px phone nothing in it wraps.
 */

/** How many lines an element's text takes (distinct line boxes of its contents). */
async function lineCount(locator: Locator): Promise<number> {
  return locator.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const tops = [...range.getClientRects()].filter((r) => r.width > 0).map((r) => r.top);
    return new Set(tops.map((t) => Math.round(t))).size;
  });
}

/** Where an element's content starts (inside its padding), in CSS pixels. */
async function left(locator: Locator): Promise<number> {
  return locator.evaluate((el) =>
    Math.round(
      el.getBoundingClientRect().left + Number.parseFloat(getComputedStyle(el).paddingLeft),
    ),
  );
}

async function expectHeaderOnOneLine(page: Page) {
  const signOut = page.getByTestId("sign-out");
  await expect(signOut).toBeVisible();
  expect(await lineCount(signOut)).toBe(1);
  const box = await signOut.boundingBox();
  expect(box && box.x + box.width <= 375).toBe(true);
  // Every item of the header that shows sits on the one row Sign out is on, inside the screen.
  const items = await page.locator("header nav").evaluate((nav) =>
    [...nav.querySelectorAll("a, span, select, button")]
      .map((c) => c.getBoundingClientRect())
      .filter((r) => r.width > 0)
      .map((r) => ({ middle: Math.round(r.top + r.height / 2), right: r.right })),
  );
  expect(new Set(items.map((i) => i.middle)).size).toBe(1);
  expect(Math.max(...items.map((i) => i.right))).toBeLessThanOrEqual(375);
}

for (const locale of ["en-US", "ru-RU"]) {
  test.describe(`header at 375 px (${locale})`, () => {
    test.use({ locale });

    test("Sign out stays on one line, on the orders, chat and audit pages", async ({
      page,
      anna,
    }) => {
      await page.setViewportSize({ width: 375, height: 740 });
      await new SignInPage(page).as(anna);
      await expectHeaderOnOneLine(page);
      await new ChatPage(page).startNewChat();
      await expectHeaderOnOneLine(page);
      await signOut(page);
      await new SignInPage(page).demo("staff");
      await page.goto("/audit");
      await expectHeaderOnOneLine(page);
    });
  });
}

test("the header lines up with the page below it", async ({ page, anna }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await new SignInPage(page).as(anna);
  const brand = page.locator("header nav a").first();
  // Measured until the page has settled: right after a client-side navigation the header may
  // still belong to the page before (a different width), so one early reading can differ.
  const offset = (heading: Locator) =>
    expect.poll(async () => (await left(brand)) - (await left(heading)));
  // Orders: a centred column; the brand starts where the page heading does.
  await offset(page.getByRole("heading", { name: "Your orders" })).toBe(0);
  expect(await left(brand)).toBeGreaterThan(100);
  // Chat: the whole window; the brand starts where the chat list's heading does.
  await new ChatPage(page).startNewChat();
  await offset(page.getByRole("heading", { name: "Your chats" })).toBe(0);

  await signOut(page);
  await new SignInPage(page).demo("staff");
  await page.goto("/audit");
  await offset(page.getByRole("heading", { name: "Audit", exact: true })).toBe(0);
});
