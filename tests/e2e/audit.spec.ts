import { expectNoSeriousA11yViolations } from "./a11y";
import { ApiCustomer, AuditPage } from "./audit-pages";
import { type Customer, expect, newCustomer, test } from "./fixtures";
import { SignInPage } from "./pages";

/**
 * Staff audit, end to end against the production build. A customer of this file's own
 * (tests/e2e/fixtures.ts) makes real events through the chat API: a status question, a return
 * proposal she cancels. The tests only read them (and triage the chat), so each runs alone too.
 */

let anna: Customer;
let o7718: string;
let chatId: string;
let actionId: string;

test.beforeAll(async ({ baseURL }) => {
  anna = await newCustomer(baseURL!, "anna");
  o7718 = anna.order("7718");
  const api = await ApiCustomer.signIn(baseURL!, anna.email);
  chatId = await api.newChat();
  expect(await api.say(chatId, `Where is order ${anna.order("8041")}?`)).toBeNull();
  const proposed = await api.say(
    chatId,
    `Create a return request for order ${o7718}. The item arrived damaged.`,
  );
  expect(proposed).not.toBeNull();
  actionId = proposed!;
  await api.cancel(actionId);
  await api.api.dispose();
});

test("visitors are sent to sign in and customers away, from the pages and the APIs", async ({
  page,
  playwright,
  baseURL,
}) => {
  // Eleven page loads and two sign-ins: on a loaded shared machine this outruns the 60 s default.
  test.slow();
  for (const path of [
    "/audit",
    `/audit/chats/${chatId}`,
    `/audit/actions/${actionId}`,
    "/audit/events/1",
  ]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/sign-in$/);
  }
  const anon = await playwright.request.newContext({ baseURL });
  for (const path of ["/api/audit", "/api/audit/export", `/api/staff/chats/${chatId}`]) {
    expect((await anon.get(path)).status(), path).toBe(401);
  }
  await anon.dispose();

  await new SignInPage(page).as(anna);
  for (const path of ["/audit", `/audit/chats/${chatId}`, `/audit/actions/${actionId}`]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("order-list")).toBeVisible();
  }
  for (const path of ["/api/audit", "/api/audit/export", `/api/staff/chats/${chatId}`]) {
    const res = await page.request.get(path);
    expect(res.status(), path).toBe(403);
    expect((await res.json()).error.code).toBe("forbidden");
  }
  const triage = await page.request.post(`/api/staff/chats/${chatId}/triage`, {
    headers: { origin: baseURL! },
  });
  expect(triage.status()).toBe(403);
});

test("staff go from the table to the action's timeline and the chat transcript", async ({
  page,
}) => {
  // Three axe scans and a dozen page loads: more than the 60 s default on a loaded machine.
  test.slow();
  await new SignInPage(page).demo("staff");
  await page.getByTestId("nav-audit").click();
  const audit = new AuditPage(page);
  await expect(audit.rows.first()).toBeVisible();
  await expect(audit.chart).toContainText("Events by status");
  await expectNoSeriousA11yViolations(page);

  await audit.filter({ status: "cancelled", customer: anna.email });
  await expect(page).toHaveURL(/status=cancelled/);
  const row = audit.rows.first();
  await expect(row.getByTestId("status-badge")).toHaveText("Cancelled");
  await expect(row.getByTestId("audit-customer")).toHaveText(anna.email);
  await expect(row.getByTestId("audit-tool")).toHaveText("create_return_request");
  await expect(
    audit.chart.getByTestId("chart-cancelled").getByTestId("chart-count"),
  ).not.toHaveText("0");

  await row.getByTestId("audit-row-link").click();
  await expect(page.getByTestId("event-heading")).toBeVisible();
  await expect(page.getByTestId("event-arguments")).toContainText(`"orderId": "${o7718}"`);
  await expect(page.getByTestId("plan-summary")).toContainText(
    `create a return request for order ${o7718}`,
  );
  const steps = audit.timeline.getByTestId("timeline-step");
  await expect(steps).toHaveCount(2);
  await expect(steps.nth(0)).toContainText("Proposed");
  await expect(steps.nth(0)).toContainText("by the assistant");
  await expect(steps.nth(1)).toContainText("Cancelled");
  await expect(steps.nth(1)).toContainText(`Anna Petrova <${anna.email}>`);
  await expectNoSeriousA11yViolations(page);

  await page.getByTestId("open-transcript").click();
  await expect(page).toHaveURL(new RegExp(`/audit/chats/${chatId}$`));
  // Whose chat: the name always beside the email, which only an operator sets.
  await expect(page.getByTestId("transcript-heading").locator("xpath=..")).toContainText(
    `Anna Petrova <${anna.email}>`,
  );
  const messages = page.getByTestId("transcript-message");
  await expect(messages.first()).toContainText(`Where is order ${anna.order("8041")}?`);
  await expect(page.getByTestId("transcript-proposal")).toContainText("create_return_request");
  await expect(page.getByTestId("transcript-outcome")).toContainText("cancelled");
  // Read-only: no composer, no confirm buttons.
  await expect(page.getByRole("textbox")).toHaveCount(0);
  await expect(page.getByTestId("confirm-button")).toHaveCount(0);

  await expect(page.getByTestId("triage-none")).toBeVisible();
  await page.getByTestId("run-triage").click();
  await expect(page.getByTestId("triage-category")).toHaveText("return request");
  await expect(page.getByTestId("triage-sentiment")).toHaveText("negative");
  await expect(page.getByTestId("triage-summary")).toContainText(o7718);
  await page.reload();
  await expect(page.getByTestId("triage-summary")).toContainText(o7718);
  await expectNoSeriousA11yViolations(page);
});

test("staff page through events and export the filtered ones as CSV", async ({ page }) => {
  await new SignInPage(page).demo("staff");
  const audit = new AuditPage(page);
  await audit.goto(`?chat=${chatId}`);
  await expect(page.getByTestId("filter-chat")).toContainText(chatId);
  // Status call, proposal, cancel (and a staff triage, if the test above ran), newest first.
  const ownEvents = audit.rows.filter({
    hasNot: page.getByTestId("audit-tool").getByText("triage_chat", { exact: true }),
  });
  await expect(ownEvents).toHaveCount(3);
  await expect(ownEvents.getByTestId("status-badge")).toHaveText([
    "Cancelled",
    "Confirmation required",
    "Success",
  ]);
  const triaged = (await audit.rows.count()) - 3;

  const href = await page.getByTestId("export-csv").getAttribute("href");
  const csv = await page.request.get(href!);
  expect(csv.headers()["content-type"]).toMatch(/^text\/csv/);
  const lines = (await csv.text()).trim().split("\r\n");
  expect(lines).toHaveLength(4 + triaged);
  expect(lines[1 + triaged]).toContain(",cancelled,");

  // Keyset pages: a bad cursor is reported, not a crash.
  await audit.goto(`?chat=${chatId}&before=garbage`);
  await expect(page.getByTestId("filter-problems")).toContainText("page link was damaged");
});
