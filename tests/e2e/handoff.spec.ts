import { expect, test } from "./fixtures";
import { ChatPage, SignInPage } from "./pages";

/**
 * A person taking over a chat, in Chromium: the customer asks for a person, staff find the chat in the queue,
 * reply from the transcript page, and the customer's open page shows the reply (by its polling,
 * without a reload) with the staff member's name; then staff hand the chat back. In English and
 * in Russian.
 */
for (const lang of ["en", "ru"] as const) {
  const ask = lang === "en" ? "I want to talk to a human" : "Позовите оператора";
  const note =
    lang === "en" ? "A person from our team will reply" : "Скоро здесь ответит сотрудник";
  const label = lang === "en" ? "Sam Support, support team:" : "Sam Support, служба поддержки:";
  const active = lang === "en" ? "You are talking to Sam Support" : "Вам отвечает Sam Support";
  const reply = lang === "en" ? "Hello, this is Sam. How can I help?" : "Здравствуйте, это Сэм.";

  test(`a handoff with a staff reply the customer sees (${lang})`, async ({
    page,
    anna,
    browser,
  }) => {
    await new SignInPage(page).as(anna);
    const chat = new ChatPage(page);
    const chatId = await chat.startNewChat();
    const answer = await chat.ask(ask);
    await expect(answer).toContainText(note);
    await expect(page.getByTestId("handoff-banner")).toHaveAttribute("data-status", "waiting");

    // Staff, in a browser of their own.
    const staffContext = await browser.newContext();
    const staffPage = await staffContext.newPage();
    await new SignInPage(staffPage).demo("staff");
    await staffPage.goto("/audit/handoffs");
    await staffPage.locator(`a[href="/audit/chats/${chatId}"]`).click();
    await expect(staffPage.getByTestId("handoff-panel")).toHaveAttribute("data-status", "waiting");
    await staffPage.getByTestId("staff-reply-input").fill(reply);
    await staffPage.getByTestId("staff-reply-send").click();
    await expect(staffPage.getByTestId("handoff-panel")).toHaveAttribute("data-status", "active");
    await expect(staffPage.locator('[data-role="staff"]')).toContainText(reply);

    // The customer's page, never reloaded, shows the reply with the staff member's name.
    const staffMessage = page.getByTestId("message-staff");
    await expect(staffMessage).toContainText(reply);
    await expect(staffMessage).toContainText(label);
    await expect(page.getByTestId("handoff-banner")).toContainText(active);

    // The customer writes back: stored, answered only with the note (no model).
    const second = await chat.ask(lang === "en" ? "Where is my order?" : "Где мой заказ?");
    await expect(second).toContainText(note);

    // Handed back: the banner goes, and the assistant answers again.
    await staffPage.getByTestId("staff-release").click();
    await expect(staffPage.getByTestId("handoff-panel")).toHaveCount(0);
    await expect(page.getByTestId("handoff-banner")).toHaveCount(0);
    await staffContext.close();
  });
}
