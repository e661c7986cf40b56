/**
 * better-auth's errors in the contract's shape: `{error: {code, message}}`, with better-auth's own
 * fields kept beside it for its client. The code is better-auth's, in lower snake case, else the
 * status's name; the message is better-auth's, else one of ours, never empty; a success passes
 * through untouched.
 */
import { describe, expect, it } from "vitest";
import { toContractError } from "@/lib/auth/contract-error";

const respond = (status: number, body?: string, statusText?: string) =>
  new Response(body ?? null, {
    status,
    statusText,
    headers: body
      ? { "content-type": "application/json", "content-length": String(body.length) }
      : {},
  });

async function contract(res: Response) {
  const out = await toContractError(res);
  expect(out.headers.get("content-type")).toBe("application/json");
  expect(out.headers.get("content-length")).toBeNull();
  return { status: out.status, body: await out.json() };
}

describe("better-auth's errors in the contract's shape", () => {
  it("a success is passed through as it is", async () => {
    const ok = respond(200, '{"ok":true}');
    expect(await toContractError(ok)).toBe(ok);
    const redirect = new Response(null, { status: 302, headers: { location: "/" } });
    expect(await toContractError(redirect)).toBe(redirect);
  });

  it("keeps better-auth's code (in lower snake case) and message, and its own fields", async () => {
    const body = JSON.stringify({
      code: "INVALID_EMAIL_OR_PASSWORD",
      message: "Invalid email or password",
    });
    expect(await contract(respond(401, body))).toEqual({
      status: 401,
      body: {
        code: "INVALID_EMAIL_OR_PASSWORD",
        message: "Invalid email or password",
        error: { code: "invalid_email_or_password", message: "Invalid email or password" },
      },
    });
    const odd = JSON.stringify({ code: "User--Already  Exists!", message: "Taken" });
    expect((await contract(respond(422, odd))).body.error.code).toBe("user_already_exists_");
  });

  it("no body from the router: the status's name, and a message of ours", async () => {
    expect((await contract(respond(404))).body).toEqual({
      error: { code: "not_found", message: "No such endpoint." },
    });
    expect((await contract(respond(405, undefined, "Method Not Allowed"))).body).toEqual({
      error: { code: "method_not_allowed", message: "Method Not Allowed" },
    });
    expect((await contract(respond(429))).body.error).toEqual({
      code: "rate_limited",
      message: "Request failed.",
    });
    expect((await contract(respond(418))).body.error.code).toBe("http_418");
  });

  it("a body that is not JSON, or fields of the wrong type, fall back the same way", async () => {
    expect((await contract(respond(500, "<html>oops</html>"))).body.error).toEqual({
      code: "http_500",
      message: "Request failed.",
    });
    const wrong = JSON.stringify({ code: 42, message: { text: "x" } });
    expect((await contract(respond(404, wrong))).body.error).toEqual({
      code: "not_found",
      message: "No such endpoint.",
    });
  });
});
