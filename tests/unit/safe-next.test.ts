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
    // The router decodes %5C before it navigates, and a browser reads `/\` as `//`.
    ["/%5Cevil.example", "/"],
    ["javascript:alert(1)", "/"],
    // The raw value starts with one slash, the path it resolves to does not.
    ["/.//example.org/", "/"],
    ["/./%2F%2Fexample.org/", "/"],
    ["/.%2F/example.org", "/"],
    ["/%2F%2Fexample.org/", "/"],
    ["/%252F%252Fexample.org/", "/"],
    ["/./%5C%5Cexample.org", "/"],
    ["/..//example.org", "/"],
    ["/chat/../..//example.org", "/"],
    ["/%2e/%2F/example.org", "/"],
    ["/%ZZ", "/"],
    // Still fine: dot segments that stay on the site, an escaped character inside a segment.
    ["/./chat", "/chat"],
    ["/audit/../chat?x=%2F%2Fa", "/chat?x=%2F%2Fa"],
    ["/chat/a%20b", "/chat/a%20b"],
  ])("%j -> %j", (value, expected) => {
    expect(safeNext(value, ORIGIN)).toBe(expected);
  });
});
