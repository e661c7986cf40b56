import { expect, test } from "./fixtures";
import { ChatPage, SignInPage } from "./pages";

/**
 * People in the loop in Chromium: the customer edits a proposal on its card and then confirms the edited
 * one; a refund above the approval threshold waits for staff after Confirm, and the customer's
 * card updates without a reload when staff approve it on /audit/approvals.
 */
test.describe("people in the loop", () => {
  test("edit, then confirm: the edited proposal is what gets created", async ({ page, anna }) => {
    await new SignInPage(page).as(anna);
    const chat = new ChatPage(page);
    await chat.startNewChat();
    const order = anna.order("7718");
    await chat.ask(`Create a return request for order ${order}. It arrived damaged.`);
    const first = chat.card;
    await expect(first.getByTestId("confirm-reason")).toHaveText("Arrived damaged");
    const firstId = await first.getAttribute("data-action-id");

    await first.getByTestId("edit-button").click();
    await first.getByTestId("edit-reason").selectOption("other");
    await first.getByTestId("edit-comment").fill("It is the wrong size");
    await first.getByTestId("edit-save").click();

    // The chat shows the revision: the old card is replaced, a new one carries the edit.
    await expect(chat.cards).toHaveCount(2);
    await expect(chat.cards.first()).toHaveAttribute("data-action-id", firstId!);
    await expect(chat.cards.first().getByTestId("confirm-outcome")).toContainText(
      "No longer valid",
    );
    const edited = chat.card;
    await expect(edited).not.toHaveAttribute("data-action-id", firstId!);
    await expect(edited.getByTestId("confirm-reason")).toHaveText("Other");
    await expect(edited.getByTestId("confirm-comment")).toHaveText("It is the wrong size");
    await expect(page.getByText("You edited the proposal (edit 1 of 5)")).toBeVisible();

    await edited.getByTestId("confirm-button").click();
    await expect(edited.getByTestId("confirm-outcome")).toContainText(/Request ID: RR-\S+/);
    // After a reload the stored transcript still shows both cards and the edit.
    await page.reload();
    await expect(chat.cards).toHaveCount(2);
    await expect(chat.card.getByTestId("confirm-comment")).toHaveText("It is the wrong size");
  });

  test("above the threshold: Confirm waits for staff, and the card updates when they approve", async ({
    page,
    anna,
    browser,
  }) => {
    await new SignInPage(page).as(anna);
    const chat = new ChatPage(page);
    await chat.startNewChat();
    const order = anna.order("2890");
    await chat.ask(`Create a return request for order ${order}. It arrived damaged.`);
    const card = chat.card;
    await expect(card.getByTestId("confirm-approval-notice")).toContainText(
      "our team approves this refund after you confirm",
    );
    const actionId = await card.getAttribute("data-action-id");
    await card.getByTestId("confirm-button").click();
    const outcome = card.getByTestId("confirm-outcome");
    await expect(outcome).toHaveText(
      "Confirmed. Waiting for our team's approval; nothing has been done yet.",
    );
    await expect(card).toHaveAttribute("data-state", "awaiting_approval");
    // The chat is free again and says so.
    await expect(chat.composer).toBeEnabled();
    await expect(page.getByText("a member of our team approves this refund")).toBeVisible();

    const staffContext = await browser.newContext();
    const staff = await staffContext.newPage();
    await new SignInPage(staff).demo("staff");
    await staff.goto("/audit/approvals");
    const item = staff.locator(`[data-testid="approval"][data-action-id="${actionId}"]`);
    await expect(item).toContainText(anna.email);
    // Staff words on the staff screen: what it is and what approving runs, not the customer's ask.
    await expect(item.getByRole("heading")).toHaveText(`Return request for order ${order}`);
    await expect(item).toContainText(
      `Approving creates the customer’s return request for order ${order}; once the parcel is marked received, €1,290.00 is refunded`,
    );
    await expect(staff.locator("main")).not.toContainText(/Confirm your|until you confirm|\/audit/);
    await item.getByTestId("approve-button").click();
    await expect(item).toHaveCount(0);
    // The action's timeline words each step: the confirm that waited, then the approved write.
    await staff.goto(`/audit/actions/${actionId}`);
    const steps = staff.getByTestId("timeline-step");
    await expect(steps.and(staff.locator('[data-status="awaiting_approval"]'))).toContainText(
      "Confirmed; waiting for staff approval",
    );
    // Four eyes: the audit says whose. The approval is its own step, naming Sam; what it ran
    // is the server's, not the customer's confirm.
    await expect(steps.filter({ hasText: "Approved by staff" })).toContainText(
      "by staff member Sam Support <staff@example.com>",
    );
    await expect(steps.filter({ hasText: "Executed on the approval" })).toHaveCount(1);
    await expect(steps.filter({ hasText: "Confirmed and executed" })).toHaveCount(0);
    await expect(steps.and(staff.locator('[data-status="awaiting_approval"]'))).toContainText(
      `by the customer ${anna.name}`,
    );
    await staffContext.close();

    // No reload: the card follows the action until staff decided.
    await expect(outcome).toContainText(/Request ID: RR-\S+/);
    await expect(card).toHaveAttribute("data-state", "executed");
  });
});
