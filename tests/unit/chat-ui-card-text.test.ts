import { createTranslator } from "use-intl/core";
import { describe, expect, it } from "vitest";
import { describeOutcome } from "@/lib/chat-client/action-view";
import { chatLanguage } from "@/lib/chat-client/messages";
import { conversationText } from "@/lib/i18n/messages";

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
});

describe("confirm card wording from the catalogue of the chat's language", () => {
  it("words the generic outcomes in Russian and in English", () => {
    const ru = conversationText("ru");
    expect(describeOutcome({ kind: "executed", note: null }, ru).text).toBe("Подтверждено.");
    expect(describeOutcome({ kind: "cancelled" }, ru).text).toBe(
      "Вы отказались от этого запроса, поэтому ничего не сделано.",
    );
    expect(describeOutcome({ kind: "already_decided", status: "executed" }, ru).text).toBe(
      "Уже решено в другой вкладке: подтверждена.",
    );
    expect(describeOutcome({ kind: "cancelled" }, conversationText("en")).text).toBe(
      "You declined this request, so nothing was done.",
    );
  });

  it("says how long is left with each language's plural", () => {
    const left = (locale: "en" | "ru", minutes: number) =>
      createTranslator({
        locale,
        messages: conversationText(locale).messages,
        namespace: "conversation.card",
      })("expiresAt", { at: "—", minutes });
    expect(left("en", 0)).toBe("This offer expires at —, in less than a minute.");
    expect(left("en", 1)).toBe("This offer expires at —, in about 1 minute.");
    expect(left("en", 14)).toBe("This offer expires at —, in about 14 minutes.");
    expect(left("ru", 0)).toBe("Предложение действует до —, осталось меньше минуты.");
    expect(left("ru", 1)).toBe("Предложение действует до —, осталось около 1 минуты.");
    expect(left("ru", 3)).toBe("Предложение действует до —, осталось около 3 минут.");
    expect(left("ru", 14)).toBe("Предложение действует до —, осталось около 14 минут.");
    expect(left("ru", 21)).toBe("Предложение действует до —, осталось около 21 минуты.");
  });
});
