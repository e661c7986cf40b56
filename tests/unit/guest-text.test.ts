import { describe, expect, it } from "vitest";
import { REPLIES } from "@/lib/ai/models/offline/replies";
import { VISITOR_NOTE } from "@/lib/ai/prompts";
import { maskEmail } from "@/lib/guests/mask";
import { CODE_MASK, withoutCodes } from "@/lib/guests/redact";

describe("a guest's code typed into the chat", () => {
  it.each([
    ["my code is 042917", "my code is ••••••"],
    ["код 042 917 для 5502", "код •••••• для 5502"],
    ["042-917", "••••••"],
    ["(123456)", "(••••••)"],
    ["١٢٣٤٥٦", "••••••"],
  ])("%j is blanked", (text, out) => {
    expect(withoutCodes(text)).toEqual({ text: out, removed: true });
  });

  it.each([
    "Where is order 5502?",
    "order 1234567 is not mine",
    "€1,290.00 is too much",
    "call me at 12345",
  ])("%j is kept: no six digits standing alone", (text) => {
    expect(withoutCodes(text)).toEqual({ text, removed: false });
  });

  it("the mask is what the model is told about", () => {
    expect(VISITOR_NOTE).toContain(CODE_MASK);
  });
});

describe("an e-mail as the audit shows it", () => {
  it.each([
    ["lena@example.org", "l•••@example.org"],
    ["a@b.c", "a•••@b.c"],
    ["no-at-sign", "•••"],
    ["@example.org", "•••"],
  ])("%s -> %s", (email, masked) => {
    expect(maskEmail(email)).toBe(masked);
  });
});

describe("a visitor asking about an order is offered the verification", () => {
  it("in English and in Russian", () => {
    expect(REPLIES.en.signInAtStore).toContain("Verify an order");
    expect(REPLIES.ru.signInAtStore).toContain("Подтвердить заказ");
  });
});
