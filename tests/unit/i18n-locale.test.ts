import { describe, expect, it } from "vitest";
import { resolveLocale } from "@/lib/i18n/locales";

describe("resolveLocale: saved choice, then cookie, then Accept-Language, then English", () => {
  it("the user's saved choice wins over everything", () => {
    expect(resolveLocale({ saved: "ru", cookie: "en", acceptLanguage: "en-GB" })).toBe("ru");
    expect(resolveLocale({ saved: "en", cookie: "ru", acceptLanguage: "ru-RU" })).toBe("en");
  });

  it("the browser's cookie comes next", () => {
    expect(resolveLocale({ saved: null, cookie: "ru", acceptLanguage: "en" })).toBe("ru");
  });

  it("then Accept-Language, regional tags and q-values included", () => {
    expect(resolveLocale({ acceptLanguage: "ru-RU,ru;q=0.9,en-US;q=0.8" })).toBe("ru");
    expect(resolveLocale({ acceptLanguage: "de-DE,en;q=0.5,ru;q=0.9" })).toBe("ru");
    expect(resolveLocale({ acceptLanguage: "en-US,en;q=0.9" })).toBe("en");
  });

  it("English when nothing usable is given; unknown values are ignored", () => {
    expect(resolveLocale({})).toBe("en");
    expect(resolveLocale({ saved: "fr", cookie: "<script>", acceptLanguage: "de, fr" })).toBe("en");
    expect(resolveLocale({ acceptLanguage: "" })).toBe("en");
  });
});
