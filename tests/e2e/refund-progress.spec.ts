import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { ChatPage, SignInPage } from "./pages";

/**
 * A refund's progress on the customer's side, end to end on the built-in ledger (the default provider): after
 * Confirm, a cancellation's card says the refund is processing and then, without a reload, that
 * it is refunded; the card polls GET /api/actions/{id} until the refund settles. Then staff see
 * the refund on the action's page, on /audit (filtered by the effect's tool) and on the metrics
 * page. Each test has its own customer and orders (tests/e2e/fixtures.ts).
 */

/**
 * Records every text the card's outcome note shows from now on, in the page itself: the ledger
 * may refund within a few milliseconds, and the recording proves "processing" was on screen
 * before "refunded" however quickly it changed. A reload would lose the recording.
 */
async function recordNotes(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const w = window as unknown as { __notes: string[] };
    w.__notes = [];
    const record = () => {
      const text = document.querySelector('[data-testid="confirm-outcome"]')?.textContent;
      if (text && w.__notes.at(-1) !== text) w.__notes.push(text);
    };
    new MutationObserver(record).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  });
  return () => page.evaluate(() => (window as unknown as { __notes: string[] }).__notes);
}

test.describe("the refund after a cancellation, as the customer and staff see it", () => {
  test("the card's note goes from processing to refunded without a reload; staff see the refund", async ({
    page,
    anna,
    browser,
  }) => {
    await new SignInPage(page).as(anna);
    const chat = new ChatPage(page);
    await chat.startNewChat();
    const order = anna.order("3004");
    await chat.ask(`I ordered it by mistake, please cancel ${order}`);
    await expect(chat.card.getByRole("heading")).toHaveText(
      `Confirm the cancellation of order ${order}`,
    );
    const actionId = await chat.card.getAttribute("data-action-id");
    const notes = await recordNotes(page);
    await chat.card.getByTestId("confirm-button").click();

    const outcome = chat.card.getByTestId("confirm-outcome");
    const refunded = new RegExp(
      `^Order ${order} is cancelled\\. Refund of €45\\.00: refunded\\. Cancellation ID: CN-\\S+\\.$`,
    );
    await expect(outcome).toHaveText(refunded);
    await expect(outcome).toHaveAttribute("data-settled", "true");
    const seen = await notes();
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatch(
      new RegExp(
        `^Order ${order} is cancelled\\. Refund of €45\\.00: processing\\. Cancellation ID: CN-\\S+\\.$`,
      ),
    );
    expect(seen[1]).toMatch(refunded);

    // A reload shows the settled note at once (the chat's cards carry their effects' state).
    await page.reload();
    await expect(chat.card.getByTestId("confirm-outcome")).toHaveText(refunded);

    // Staff: the action's page lists the refund with its attempt and the ledger's reference.
    const staffContext = await browser.newContext();
    const staff = await staffContext.newPage();
    await new SignInPage(staff).demo("staff");
    await staff.goto(`/audit/actions/${actionId}`);
    // The refund, one row of it; the customer's mails (cancelled, refunded) are effects too.
    await expect(staff.getByTestId("action-effect")).toHaveCount(3);
    const effect = staff.locator('[data-testid="action-effect"][data-kind="payment.refund"]');
    await expect(effect).toHaveCount(1);
    await expect(effect).toHaveAttribute("data-status", "succeeded");
    await expect(effect.getByTestId("effect-status")).toHaveText("succeeded");
    await expect(effect.getByTestId("effect-attempts")).toHaveText("1");
    await expect(effect.getByTestId("effect-last-error")).toHaveText("—");
    await expect(effect.getByTestId("effect-provider-ref")).toHaveText(/^rl_\S+$/);
    await expect(effect.getByTestId("effect-attempt")).toHaveText([/^attempt 1: succeeded/]);
    await expect(staff.getByTestId("customer-note")).toContainText("Refund of €45.00: refunded");
    await expect(
      staff.getByTestId("timeline-step").filter({ hasText: "Refund, attempt 1: succeeded" }),
    ).toContainText("by the effects relay");

    // /audit finds the attempt by the effect's tool, with its outcome beside the status.
    await staff.goto(
      `/audit?tool=effect:payment.refund&customer=${encodeURIComponent(anna.email)}`,
    );
    const rows = staff.getByTestId("audit-row");
    await expect(rows).toHaveCount(1);
    await expect(rows.getByTestId("audit-tool")).toHaveText("effect:payment.refund");
    await expect(rows.getByTestId("audit-effect-outcome")).toHaveText("succeeded");

    // The metrics page counts it among the refunds that succeeded, with a time to settle.
    await staff.goto("/audit/metrics");
    const row = staff
      .getByTestId("metrics-effects-status")
      .locator('tr[data-kind="payment.refund"]');
    await expect(row.locator('td[data-status="succeeded"]')).not.toHaveText("0");
    const settle = staff
      .getByTestId("metrics-effects-settle")
      .locator('tr[data-kind="payment.refund"]');
    await expect(settle.locator('td[data-figure="p50"]')).toHaveText(/^[\d.,]+ (ms|s|min|h)$/);
    await staffContext.close();
  });

  test("in Russian: «в обработке», then «деньги возвращены», without a reload", async ({
    page,
    boris,
  }) => {
    await new SignInPage(page).as(boris);
    const chat = new ChatPage(page);
    await chat.startNewChat();
    const order = boris.order("1187");
    await chat.ask(`Отмените заказ ${order}, пожалуйста`);
    await expect(chat.card.getByRole("heading")).toHaveText(`Подтвердите отмену заказа ${order}`);
    const notes = await recordNotes(page);
    await chat.card.getByTestId("confirm-button").click();
    const refunded = new RegExp(
      `^Заказ ${order} отменён\\. Возврат 43,90\\s€: деньги возвращены\\. Номер отмены: CN-\\S+\\.$`,
    );
    await expect(chat.card.getByTestId("confirm-outcome")).toHaveText(refunded);
    const seen = await notes();
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatch(
      new RegExp(
        `^Заказ ${order} отменён\\. Возврат 43,90\\s€: в обработке\\. Номер отмены: CN-\\S+\\.$`,
      ),
    );
    expect(seen[1]).toMatch(refunded);
  });
});
