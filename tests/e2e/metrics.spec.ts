import { expectNoSeriousA11yViolations } from "./a11y";
import { ApiCustomer } from "./audit-pages";
import { expect, newCustomer, test } from "./fixtures";
import { SignInPage } from "./pages";

/**
 * The staff metrics page after real traffic: whatever the other specs sent to the same server,
 * plus this file's own customer (so the spec also passes alone or first): a status question and
 * a return confirmed through the chat API. Every number is made by the app's own writers; nothing
 * is inserted by the test.
 */
test.beforeAll(async ({ baseURL }) => {
  const anna = await newCustomer(baseURL!, "anna");
  const api = await ApiCustomer.signIn(baseURL!, anna.email);
  const chatId = await api.newChat();
  expect(await api.say(chatId, `Where is order ${anna.order("8041")}?`)).toBeNull();
  const proposed = await api.say(
    chatId,
    `Create a return request for order ${anna.order("7718")}. The item arrived damaged.`,
  );
  expect(proposed).not.toBeNull();
  await api.confirm(proposed!);
  await api.api.dispose();
});

test("staff see real numbers for today's traffic, with server-drawn charts and no serious a11y issues", async ({
  page,
}) => {
  // A click on a header link while Next is still prefetching that page must still bring the
  // page's <title>: Next 16.4.6 then kept the prefetch's empty head for good (see
  // components/app-header.tsx). A slow server (the suite on PostgreSQL) made that window wide
  // enough by chance; holding the page's loading-state prefetch for 2 s makes it certain. /_tree
  // prefetches and the navigation itself pass.
  let prefetchSeen = () => {};
  const prefetching = new Promise<void>((resolve) => {
    prefetchSeen = resolve;
  });
  await page.route(/\/audit\/metrics\?_rsc=/, async (route) => {
    const h = route.request().headers();
    if (h["next-router-prefetch"] && !h["next-router-segment-prefetch"]) {
      prefetchSeen();
      await new Promise((r) => setTimeout(r, 2_000));
    }
    await route.continue().catch(() => {});
  });
  await new SignInPage(page).demo("staff");
  // The header prefetches right after it mounts, if it prefetches at all (it should not).
  await Promise.race([prefetching, page.waitForTimeout(1_000)]);
  await page.getByTestId("nav-metrics").click();
  await expect(page.getByRole("heading", { name: "Model metrics" })).toBeVisible();

  const metric = (id: string) => page.getByTestId(`metric-${id}`);
  const positive = /^[1-9][\d,]*$/;
  await expect(metric("turns")).toHaveText(positive);
  await expect(metric("chats")).toHaveText(positive);
  await expect(metric("proposals")).toHaveText(positive);
  await expect(metric("tool-calls")).toHaveText(positive);
  await expect(metric("latency")).toHaveText(/^\d[\d,]* ms \/ \d[\d,]* ms$/);
  await expect(metric("ttft")).toHaveText(/^\d[\d,]* ms \/ \d[\d,]* ms$/);
  await expect(metric("tokens-turn")).toHaveText(positive);
  await expect(metric("confirm-rate")).toHaveText(/^\d+\.\d%$/);
  await expect(metric("tool-share")).toHaveText(/^\d+\.\d%$/);

  const mix = page.getByTestId("metrics-tool-mix");
  await expect(mix).toContainText("get_order_status");
  await expect(mix).toContainText("create_return_request");
  const confirmed = page.getByTestId("metrics-decisions").getByRole("row", { name: /Confirmed/ });
  await expect(confirmed.getByRole("cell").nth(1)).toHaveText(positive);
  await expect(page.getByTestId("metrics-models")).toContainText(
    "returns-desk-offline-1 support-v2",
  );
  // The charts arrive drawn, as SVG in the server's HTML (no chart code runs in the browser), from
  // the same numbers as the day table: one bar per day, carrying that day's count.
  const html = await (await page.request.get("/audit/metrics")).text();
  expect(html).toMatch(
    /data-testid="daily-chart-turns"[\s\S]*?<svg[\s\S]*?data-testid="chart-bar"/,
  );
  expect(html).toMatch(
    /data-testid="daily-chart-tokens"[\s\S]*?<svg[\s\S]*?data-testid="chart-bar"/,
  );
  const bars = (id: string) => page.getByTestId(`daily-chart-${id}`).getByTestId("chart-bar");
  await expect(page.getByTestId("daily-chart-turns").locator("svg").first()).toBeVisible();
  const days = page.getByTestId("metrics-days").locator("tbody tr");
  const dayCount = await days.count();
  expect(dayCount).toBeGreaterThan(0);
  await expect(bars("turns")).toHaveCount(dayCount);
  await expect(bars("tokens")).toHaveCount(dayCount);
  // Today, the last row: day, turns, failed turns, tokens, ...
  const [day, turns, , tokens] = await days.last().locator("td").allTextContents();
  expect(Number(turns)).toBeGreaterThan(0);
  await expect(bars("turns").last()).toHaveAttribute("data-day", day ?? "");
  await expect(bars("turns").last()).toHaveAttribute("data-value", turns ?? "");
  await expect(bars("tokens").last()).toHaveAttribute("data-value", tokens ?? "");
  // A bar's height is its count: today's turns bar is not flat.
  expect(Number(await bars("turns").last().getAttribute("height"))).toBeGreaterThan(0);
  await expect(page).toHaveTitle(/Model metrics/);
  await expectNoSeriousA11yViolations(page);

  // A range staff type by hand: a bad date is reported, not a crash.
  await page.goto("/audit/metrics?from=2026-02-31&to=2026-03-01");
  await expect(
    page
      .getByRole("alert")
      .filter({ hasNot: page.locator("#__next-route-announcer__") })
      .first(),
  ).toContainText("does not exist");
});

test("customers cannot see the metrics page", async ({ page }) => {
  await new SignInPage(page).demo("anna");
  await page.goto("/audit/metrics");
  await expect(page).toHaveURL(/\/$/);
});
