/**
 * The offline model hands a chat to a person when the customer asks for one, in English and in
 * Russian, and not when a message only mentions people or asks something else.
 */
import { describe, expect, it } from "vitest";
import { classify } from "@/lib/ai/models/offline/classify";
import { asksForPerson } from "@/lib/ai/models/offline/handoff";

const ASKS = [
  "I want to talk to a human",
  "Can I speak to a real person please?",
  "Connect me with an operator",
  "I need a human agent",
  "human please",
  "Позовите оператора",
  "позовите оператора, пожалуйста",
  "Хочу поговорить с живым человеком",
  "Соедините с сотрудником",
  "оператор",
];
const DOES_NOT_ASK = [
  "Where is my order 8041?",
  "Do humans read this chat?",
  "Create a return request for order 7718, it arrived damaged",
  "The operator of the delivery van was rude",
  "Где мой заказ 8041?",
  "Спасибо",
];

describe("the offline model recognises a request for a person", () => {
  it.each(ASKS)("hands off on %j", (text) => {
    expect(asksForPerson(classify(text))).toBe(true);
  });
  it.each(DOES_NOT_ASK)("does not hand off on %j", (text) => {
    expect(asksForPerson(classify(text))).toBe(false);
  });
});
