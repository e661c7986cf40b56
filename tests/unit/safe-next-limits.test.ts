import { describe, expect, it } from "vitest";
import { safeNext } from "@/lib/auth/safe-next";

const ORIGIN = "https://returns.example";

describe("safeNext: the edges of what stays on the site", () => {
  it.each([
    // Only a path: a relative value or a bare query is not one.
    ["chat/abc", "/"],
    ["?next=/chat", "/"],
    // A control character or a backslash once the router has decoded it: header splitting, or
    // a slash to the browser.
    ["/chat%0d%0aSet-Cookie:x=1", "/"],
    ["/chat%0A", "/"],
    ["/chat%5Cx", "/"],
    ["/chat%255Cx", "/"],
  ])("%j -> %j", (value, expected) => {
    expect(safeNext(value, ORIGIN)).toBe(expected);
  });

  it("decodes five times, as far as any router goes; deeper encoding stays a literal path", () => {
    // "%2F" with its "%" encoded five more times: the router decodes it once, to a path that
    // still starts with a single slash and a segment of escapes.
    const deep = `/${"%2F".replace(/%/g, `%${"25".repeat(5)}`).repeat(2)}example.org`;
    expect(safeNext(deep, ORIGIN)).toBe(deep);
    const four = `/${"%2F".replace(/%/g, `%${"25".repeat(4)}`).repeat(2)}example.org`;
    expect(safeNext(four, ORIGIN)).toBe("/");
  });

  it("without an origin, this server's own paths pass and others do not", () => {
    expect(safeNext("/chat/abc?x=1")).toBe("/chat/abc?x=1");
    expect(safeNext("//evil.example/")).toBe("/");
  });
});
