import { expect, test } from "./fixtures";
import { ChatPage, SignInPage, signOut } from "./pages";
import { noModelServerURL } from "./servers";

test.describe("chat errors on the main server", () => {
  test("a message over 2000 characters is stopped before sending, with a counter", async ({
    page,
    anna,
  }) => {
    await new SignInPage(page).as(anna);
    const chat = new ChatPage(page);
    await chat.startNewChat();
    const counter = page.getByTestId("char-counter");
    await chat.composer.fill("a".repeat(2001));
    await expect(counter).toHaveText(
      "2001 / 2000: 1 character too many. Shorten the message to send it.",
    );
    await expect(chat.composer).toHaveAttribute("aria-invalid", "true");
    await expect(chat.sendButton).toBeDisabled();
    await chat.composer.press("Enter");
    await expect(chat.userMessages).toHaveCount(0);

    await chat.composer.press("Backspace");
    await expect(counter).toHaveText("2000 / 2000");
    await expect(chat.sendButton).toBeEnabled();
  });

  test("an expired session explains itself and leads back to this chat after signing in", async ({
    page,
    context,
    anna,
  }) => {
    await new SignInPage(page).as(anna);
    const chat = new ChatPage(page);
    const id = await chat.startNewChat();
    await context.clearCookies();

    await chat.send("Hello!");
    await expect(chat.error).toHaveAttribute("data-kind", "unauthenticated");
    await expect(chat.userMessages).toHaveCount(0);
    await expect(chat.composer).toBeDisabled();
    await expect(chat.composer).toHaveValue("Hello!");
    await expect(chat.disabledReason).toContainText("Sign in again");

    const link = page.getByTestId("sign-in-again");
    await expect(link).toHaveAttribute(
      "href",
      `/sign-in?next=${encodeURIComponent(`/chat/${id}`)}`,
    );
    await link.click();
    await new SignInPage(page).signInWith(anna.email, anna.password);
    await expect(page).toHaveURL(new RegExp(`/chat/${id}$`));
    await expect(chat.composer).toBeEnabled();
  });
});

test.describe("chat errors when the model provider is down", () => {
  test.use({ baseURL: noModelServerURL });

  test("a failed turn offers Retry, which resends the same text; a new message replaces it", async ({
    page,
    anna,
  }) => {
    await new SignInPage(page).as(anna);
    const chat = new ChatPage(page);
    const id = await chat.startNewChat();

    await chat.send("Hello!");
    await expect(chat.error).toHaveAttribute("data-kind", "model_unavailable");
    await expect(chat.error).toContainText("The assistant could not answer just now.");
    await expect(chat.userMessages).toHaveCount(1);

    const resent = page.waitForRequest(
      (r) => r.method() === "POST" && r.url().endsWith(`/api/chats/${id}/messages`),
    );
    await chat.error.getByTestId("chat-retry").click();
    expect((await resent).postDataJSON()).toEqual({ text: "Hello!" });
    await expect(chat.error).toHaveAttribute("data-kind", "model_unavailable");
    await expect(chat.userMessages).toHaveCount(1);

    // Typing something else drops the failed exchange (the server kept none of it).
    const question = `Where is order ${anna.order("8041")}?`;
    await chat.send(question);
    await expect(chat.error).toHaveAttribute("data-kind", "model_unavailable");
    await expect(chat.userMessages).toHaveCount(1);
    await expect(chat.userMessages).toContainText(question);

    await page.reload();
    await expect(chat.userMessages).toHaveCount(0);
  });
});

test("someone else's chat reads as missing, with a way back", async ({ page, anna, boris }) => {
  await new SignInPage(page).as(anna);
  const annas = await new ChatPage(page).startNewChat();
  await signOut(page);
  await new SignInPage(page).as(boris);
  const res = await page.goto(`/chat/${annas}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByTestId("chat-error")).toHaveText(
    "This chat does not exist or is not yours. Open your chats",
  );
  await expect(page.getByTestId("chat-composer")).toHaveCount(0);
  await page.getByRole("link", { name: "Open your chats" }).click();
  await expect(page).toHaveURL(/\/chat\/[^/]+$/);
  await expect(page.getByTestId("chat-composer")).toBeEnabled();
});
