import { expect, type Page, type TestInfo } from "@playwright/test";

/**
 * Signs out with the header's button and waits until the sign-in page is there. The button's
 * sign-out is a request and then a client navigation: a test that went on to /sign-in at once
 * could land there still signed in, be sent on to the orders, and never see the sign-in form.
 */
export async function signOut(page: Page) {
  await page.getByTestId("sign-out").click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByTestId("sign-in-email")).toBeVisible();
}

/** Page object for /sign-in. */
export class SignInPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/sign-in");
  }

  async signInWith(email: string, password: string) {
    await this.page.getByTestId("sign-in-email").fill(email);
    await this.page.getByTestId("sign-in-password").fill(password);
    await this.page.getByTestId("sign-in-submit").click();
  }

  /** Signs in through the form as a test's own customer (tests/e2e/fixtures.ts). */
  async as(who: { email: string; password: string }) {
    await this.goto();
    await this.signInWith(who.email, who.password);
    // Signed in: the header's Sign out shows (the user's name is hidden on a phone).
    await expect(this.page.getByTestId("sign-out")).toBeVisible();
  }

  /** One-click demo account: "anna" | "boris" | "staff". */
  async demo(who: "anna" | "boris" | "staff") {
    await this.goto();
    await this.page.getByTestId(`demo-${who}`).click();
    await expect(this.page.getByTestId("sign-out")).toBeVisible();
  }
}

/** Page object for the customer chat (/chat, /chat/{id}). */
export class ChatPage {
  constructor(readonly page: Page) {}

  get composer() {
    return this.page.getByTestId("chat-composer");
  }
  get sendButton() {
    return this.page.getByTestId("chat-send");
  }
  get assistantMessages() {
    return this.page.getByTestId("message-assistant");
  }
  get userMessages() {
    return this.page.getByTestId("message-user");
  }
  get lastAssistant() {
    return this.assistantMessages.last();
  }
  get card() {
    return this.page.getByTestId("confirm-card").last();
  }
  get cards() {
    return this.page.getByTestId("confirm-card");
  }
  get error() {
    return this.page.getByTestId("chat-error");
  }
  get disabledReason() {
    return this.page.getByTestId("composer-disabled-reason");
  }
  /** What a typed command did (a live region). */
  get feedback() {
    return this.page.getByTestId("composer-feedback");
  }
  get hint() {
    return this.page.getByTestId("composer-hint");
  }
  get toolActivity() {
    return this.page.getByTestId("tool-activity");
  }
  get typing() {
    return this.page.getByTestId("typing-indicator");
  }

  /** The chat id from the address bar. */
  chatId(): string {
    const id = new URL(this.page.url()).pathname.split("/")[2];
    if (!id) throw new Error(`not on a chat page: ${this.page.url()}`);
    return id;
  }

  /** Opens /chat (newest chat), then starts a fresh one with the New chat button. */
  async startNewChat(): Promise<string> {
    await this.page.goto("/chat");
    await expect(this.page).toHaveURL(/\/chat\/[^/]+$/);
    const before = this.chatId();
    await this.page.getByTestId("new-chat").click();
    await expect(this.page).not.toHaveURL(new RegExp(`/chat/${before}$`));
    await expect(this.page.getByTestId("chat-empty")).toBeVisible();
    return this.chatId();
  }

  async open(id: string) {
    await this.page.goto(`/chat/${id}`);
    await expect(this.page.getByTestId("chat-log")).toBeVisible();
  }

  /** Types and presses Enter, as a customer would. */
  async send(text: string) {
    await this.composer.fill(text);
    await this.composer.press("Enter");
  }

  /** Sends and waits until the answer is complete (one more assistant message, no typing indicator). */
  async ask(text: string) {
    const answers = await this.assistantMessages.count();
    await this.send(text);
    await expect(this.assistantMessages).toHaveCount(answers + 1);
    await expect(this.typing).toHaveCount(0);
    return this.lastAssistant;
  }
}

/** The orders home page (/). */
export class OrdersPage {
  constructor(readonly page: Page) {}

  async goto() {
    await this.page.goto("/");
    await expect(this.page.getByTestId("order-list")).toBeVisible();
  }

  order(id: string) {
    return this.page.getByTestId(`order-${id}`);
  }

  returnBadge(id: string) {
    return this.order(id).getByText("Return requested", { exact: true });
  }
}

/** A full-page screenshot kept in test-results/ and attached to the report. */
export async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, animations: "disabled" });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
}
