import { describe, expect, it } from "vitest";
import { errorFields } from "@/lib/log";

/** What an error line may carry: a name and a code, never the message (it can quote a prompt). */
describe("errorFields", () => {
  it("keeps the name, code and HTTP status, never the message", () => {
    const err = Object.assign(new TypeError("the customer's whole prompt"), {
      code: "ECONNRESET",
      statusCode: 502,
    });
    expect(errorFields(err)).toEqual({ name: "TypeError", code: "ECONNRESET", status: 502 });
    expect(JSON.stringify(errorFields(err))).not.toContain("prompt");
  });

  it("takes the driver's code from a wrapped query error (drizzle keeps the pg error as cause)", () => {
    const driver = Object.assign(new Error('terminating connection "rd_x"'), { code: "57P01" });
    const wrapped = new Error("Failed query: select … params: anna@example.com", { cause: driver });
    expect(errorFields(wrapped)).toEqual({ name: "Error", code: "57P01" });
    expect(JSON.stringify(errorFields(wrapped))).not.toContain("anna");
  });

  it("an error's own code wins over its cause's; odd values are named by their type", () => {
    const err = Object.assign(new Error("x", { cause: { code: "23505" } }), { code: "OWN" });
    expect(errorFields(err).code).toBe("OWN");
    expect(errorFields("text")).toEqual({ name: "string" });
    expect(errorFields(undefined)).toEqual({ name: "undefined" });
    expect(errorFields(new Error("x", { cause: null }))).toEqual({ name: "Error" });
  });
});
