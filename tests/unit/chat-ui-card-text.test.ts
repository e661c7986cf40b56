import { describe, expect, it } from "vitest";
import { describeOutcome } from "@/lib/chat-client/action-view";
import { cardText, chatLanguage, en, ru } from "@/lib/chat-client/card-text";

const user = (text: string) => ({
  role: "user" as const,
  parts: [{ type: "text" as const, text }],
});
const assistant = (text: string) => ({
  role: "assistant" as const,
  parts: [{ type: "text" as const, text }],
});

describe("chat chrome language: the customer's latest message", () => {
  it("is English without a user message", () => {
    expect(chatLanguage([])).toBe("en");
    expect(chatLanguage([assistant("Здравствуйте! Чем помочь?")])).toBe("en");
  });

  it("follows the latest user message, not the assistant's or earlier ones", () => {
    expect(chatLanguage([user("Где заказ 8041?")])).toBe("ru");
    expect(chatLanguage([user("Где заказ 8041?"), assistant("Заказ 8041 в пути.")])).toBe("ru");
    expect(chatLanguage([user("Где заказ 8041?"), user("Where is order 8041?")])).toBe("en");
    expect(
      chatLanguage([user("Where is order 8041?"), assistant("Hi"), user("Верните 4410")]),
    ).toBe("ru");
  });

  it("picks the table per language, English by default", () => {
    expect(cardText()).toBe(en);
    expect(cardText("ru")).toBe(ru);
    expect(ru.confirm).toBe("Подтвердить");
    expect(ru.cancel).toBe("Отменить");
  });
});

describe("confirm card wording in Russian", () => {
  it("words the generic outcomes in Russian", () => {
    expect(describeOutcome({ kind: "executed", note: null }, "ru").text).toBe("Подтверждено.");
    expect(describeOutcome({ kind: "cancelled" }, "ru").text).toBe("Отменено. Ничего не создано.");
  });

  it("keeps English unchanged when no language is given", () => {
    expect(describeOutcome({ kind: "cancelled" }).text).toBe("Cancelled. Nothing was created.");
  });
});
