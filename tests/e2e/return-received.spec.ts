import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { ChatPage, SignInPage } from "./pages";

/**
 * A received return's refund, end to end on the built-in ledger (the default provider): the customer
 * confirms a return in the chat (offline model), staff mark the parcel received (on the action's
 * page, or on /audit/returns), and the customer's card, still open in its own browser context
 * and never reloaded, goes on to say the refund is refunded. The card follows the return while
 * its parcel is awaited (GET /api/actions/{id} with backoff, at most 30 s apart), so the last
 * assertion allows for one long wait between polls; it is not a timing assertion.
 */

/** The card polls at most 30 s apart: allow for one full interval, plus the relay's refund. */
const FOLLOW_TIMEOUT = 45_000;

/** Records every text the card's note shows from now on, in the page itself (no reload). */
async function recordNotes(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const w = window as unknown as { __notes: string[] };
    w.__notes = [];
    const record = () => {
      const text = document.querySelector('[data-testid="confirm-outcome"]')?.textContent;
      if (text && w.__notes.at(-1) !== text) w.__notes.push(text);
    };
    record();
    new MutationObserver(record).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  });
  return () => page.evaluate(() => (window as unknown as { __notes: string[] }).__notes);
}

/** Staff in their own browser context (the demo staff account: staff@example.com). */
async function asStaff(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await new SignInPage(page).demo("staff");
  return { page, close: () => context.close() };
}

test.describe("staff receive a return's parcel; the customer's chat then says refunded", () => {
  test.setTimeout(150_000);

  test("from the action's page: the open card goes on to 'refunded' without a reload", async ({
    page,
    anna,
    browser,
  }) => {
    await new SignInPage(page).as(anna);
    const chat = new ChatPage(page);
    await chat.startNewChat();
    const order = anna.order("7718");
    await chat.ask(`Create a return request for order ${order}. The item arrived damaged.`);
    const actionId = await chat.card.getAttribute("data-action-id");
    await chat.card.getByTestId("confirm-button").click();
    const outcome = chat.card.getByTestId("confirm-outcome");
    await expect(outcome).toHaveText(/^Return request created\. Request ID: RR-\S+\.$/);
    const requestId = (await outcome.textContent())!.match(/RR-[A-Z0-9]+/)![0];
    const notes = await recordNotes(page);
    const navigations: string[] = [];
    page.on("framenavigated", (f) => {
      if (f === page.mainFrame()) navigations.push(f.url());
    });

    const staff = await asStaff(browser);
    await staff.page.goto(`/audit/actions/${actionId}`);
    const state = staff.page.getByTestId("action-return-state");
    await expect(state).toHaveAttribute("data-state", "requested");
    await expect(state).toHaveText(`Return ${requestId}: requested`);
    const button = staff.page.getByTestId("mark-received");
    await expect(button).toHaveText("Mark received");
    await button.click();
    // The page re-renders with the server's answer: received (refund under way) or refunded.
    await expect(staff.page.getByTestId("mark-received")).toHaveCount(0);
    await expect(state).toHaveAttribute("data-state", /^(received|refunded)$/);

    // The customer's card, untouched since the confirm, follows the return to its refund.
    const refunded = `Return ${requestId}: we received your parcel. Refund of €258.90: refunded.`;
    await expect(outcome).toHaveText(refunded, { timeout: FOLLOW_TIMEOUT });
    await expect(outcome).toHaveAttribute("data-settled", "true");
    const seen = await notes();
    expect(seen[0]).toBe(`Return request created. Request ID: ${requestId}.`);
    expect(seen.at(-1)).toBe(refunded);
    expect(navigations).toEqual([]);

    // Staff see it refunded too, on the action's page and in the returns list.
    await staff.page.reload();
    await expect(state).toHaveAttribute("data-state", "refunded");
    await expect(state).toHaveText(`Return ${requestId}: refunded · Refund: succeeded`);
    await staff.page.goto("/audit/returns");
    const row = staff.page.locator(`[data-testid="return-row"][data-return="${requestId}"]`);
    await expect(row).toHaveAttribute("data-state", "refunded");
    await expect(row.getByTestId("mark-received")).toHaveCount(0);
    await staff.close();
  });

  test("in Russian, from /audit/returns: «деньги возвращены» without a reload", async ({
    page,
    boris,
    browser,
  }) => {
    await new SignInPage(page).as(boris);
    const chat = new ChatPage(page);
    await chat.startNewChat();
    const order = boris.order("4410");
    await chat.ask(`Оформите возврат заказа ${order}, товар пришёл повреждённым.`);
    await expect(chat.card.getByRole("heading")).toHaveText("Подтвердите заявку на возврат");
    await chat.card.getByTestId("confirm-button").click();
    const outcome = chat.card.getByTestId("confirm-outcome");
    await expect(outcome).toHaveText(/^Заявка на возврат создана\. Номер заявки: RR-\S+\.$/);
    const requestId = (await outcome.textContent())!.match(/RR-[A-Z0-9]+/)![0];

    const staff = await asStaff(browser);
    await staff.page.goto("/audit/returns");
    const row = staff.page.locator(`[data-testid="return-row"][data-return="${requestId}"]`);
    await expect(row).toHaveAttribute("data-state", "requested");
    await expect(row.getByTestId("return-state")).toHaveText("requested");
    await row.getByTestId("mark-received").click();
    await expect(row.getByTestId("mark-received")).toHaveCount(0);
    await expect(row).toHaveAttribute("data-state", /^(received|refunded)$/);

    await expect(outcome).toHaveText(
      new RegExp(
        `^Возврат ${requestId}: мы получили вашу посылку\\. Возврат 159,00\\s€: деньги возвращены\\.$`,
      ),
      { timeout: FOLLOW_TIMEOUT },
    );
    await expect(outcome).toHaveAttribute("data-settled", "true");
    await staff.close();
  });
});
