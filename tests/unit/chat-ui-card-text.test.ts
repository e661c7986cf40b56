import { describe, expect, it } from "vitest";
import { actionSummary, argumentRows, describeOutcome } from "@/lib/chat-client/action-view";
import { cardText, chatLanguage, en, ru } from "@/lib/chat-client/card-text";
import { proposal } from "./chat-ui-fixtures";

const TOOL = "create_return_request";
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
  it("words the outcome, the reasons and the summary in Russian with ru-RU money", () => {
    expect(
      describeOutcome(
        { kind: "executed", result: { requestId: "R-1", createdNow: true } },
        TOOL,
        "ru",
      ).text,
    ).toBe("Заявка на возврат создана. Номер заявки: R-1.");
    expect(describeOutcome({ kind: "cancelled" }, TOOL, "ru").text).toBe(
      "Отменено. Ничего не создано.",
    );
    expect(argumentRows({ orderId: "7718", reason: "damaged", comment: null }, "ru")).toEqual([
      { label: "Причина", value: "Пришёл повреждённым" },
      { label: "Комментарий", value: "Нет" },
    ]);
    const summary = actionSummary(proposal(), "ru");
    expect(summary).toContain("Если вы подтвердите, мы создадим заявку на возврат по заказу 7718");
    expect(summary).toMatch(/258,90\s€/);
  });

  it("keeps English unchanged when no language is given", () => {
    expect(describeOutcome({ kind: "cancelled" }, TOOL).text).toBe(
      "Cancelled. Nothing was created.",
    );
  });
});
