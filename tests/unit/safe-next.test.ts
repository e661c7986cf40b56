import { describe, expect, it } from "vitest";
import { safeNext } from "@/lib/auth/safe-next";

const ORIGIN = "https://returns.example";

describe("safeNext: where sign-in may send the customer", () => {
  it.each([
    ["/chat/abc?x=1#m", "/chat/abc?x=1#m"],
    ["/", "/"],
    [null, "/"],
    ["", "/"],
    ["https://evil.example/", "/"],
    ["//evil.example/path", "/"],
    ["/\\evil.example", "/"],
    ["/\t/evil.example", "/"],
    ["/%5Cevil.example", "/%5Cevil.example"],
    ["javascript:alert(1)", "/"],
  ])("%j -> %j", (value, expected) => {
    expect(safeNext(value, ORIGIN)).toBe(expected);
  });
});
