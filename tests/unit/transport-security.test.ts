/**
 * Strict-Transport-Security, set by the proxy (proxy.ts) in front of every page and API route:
 * on every answer of an https deployment, or over https (directly or behind a TLS-terminating
 * proxy), and not on a plain-http demo, where it would only be ignored.
 */
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it } from "vitest";
import { resetEnv } from "@/lib/env";
import { proxy } from "@/proxy";

function withEnv(vars: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnv();
}

const hsts = (url: string, headers: Record<string, string> = {}) =>
  proxy(new NextRequest(url, { headers })).headers.get("strict-transport-security");

afterEach(() => withEnv({ BETTER_AUTH_URL: undefined, TRUST_PROXY: undefined }));

describe("Strict-Transport-Security", () => {
  it("an https BETTER_AUTH_URL: on every page and API answer, a year, whatever the request says", () => {
    withEnv({ BETTER_AUTH_URL: "https://desk.example" });
    for (const path of ["/", "/sign-in", "/api/chats", "/embed", "/widget.js"])
      expect(hsts(`http://localhost:3000${path}`), path).toBe("max-age=31536000");
  });

  it("over https, directly or through a TLS proxy (X-Forwarded-Proto: https)", () => {
    expect(hsts("https://desk.example/")).toBe("max-age=31536000");
    withEnv({ TRUST_PROXY: "1" });
    expect(hsts("http://localhost:3000/", { "x-forwarded-proto": "https" })).toBe(
      "max-age=31536000",
    );
  });

  it("not on the plain-http demo, nor with an http BETTER_AUTH_URL", () => {
    expect(hsts("http://localhost:3000/")).toBeNull();
    withEnv({ BETTER_AUTH_URL: "http://localhost:3000" });
    expect(hsts("http://localhost:3000/")).toBeNull();
  });
});
