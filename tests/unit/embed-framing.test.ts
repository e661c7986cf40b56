/**
 * Who may frame us: /embed (and its pages) by the stores in EMBED_ALLOWED_ORIGINS, every other
 * page by nobody. Checked on the real proxy (the browser's own check is in
 * tests/e2e/embed.spec.ts). And /widget.js: configured for this server, small.
 */
import { gzipSync } from "node:zlib";
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it } from "vitest";
import { GET as widgetJs } from "@/app/widget.js/route";
import { resetEnv } from "@/lib/env";
import { proxy } from "@/proxy";

const STORES = "https://shop.example http://127.0.0.1:4100";

function withEnv(vars: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnv();
}

const headersOf = (path: string) => proxy(new NextRequest(`http://localhost:3000${path}`)).headers;

afterEach(() =>
  withEnv({
    EMBED_ALLOWED_ORIGINS: undefined,
    EMBED_JWT_SECRET: undefined,
    BETTER_AUTH_URL: undefined,
  }),
);

describe("frame-ancestors", () => {
  it("/embed and its chat may be framed by the configured stores only", () => {
    withEnv({ EMBED_ALLOWED_ORIGINS: STORES });
    for (const path of ["/embed", "/embed/chat"]) {
      const h = headersOf(path);
      expect(h.get("content-security-policy")).toContain(
        "frame-ancestors https://shop.example http://127.0.0.1:4100",
      );
      expect(h.get("x-frame-options")).toBeNull();
    }
  });

  it("every other page keeps frame-ancestors 'none' and X-Frame-Options DENY", () => {
    withEnv({ EMBED_ALLOWED_ORIGINS: STORES });
    for (const path of ["/", "/chat", "/sign-in", "/audit", "/embedded", "/api/chats"]) {
      const h = headersOf(path);
      expect(h.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(h.get("x-frame-options")).toBe("DENY");
    }
  });

  it("without EMBED_ALLOWED_ORIGINS /embed may not be framed either", () => {
    expect(headersOf("/embed").get("content-security-policy")).toContain("frame-ancestors 'none'");
  });
});

describe("/widget.js", () => {
  const get = (headers: Record<string, string> = { host: "desk.example:3000" }) =>
    widgetJs(new Request("http://localhost:3000/widget.js", { headers }));
  const script = async (headers?: Record<string, string>) => {
    const res = await get(headers);
    expect(res.headers.get("content-type")).toMatch(/^text\/javascript/);
    return res.text();
  };
  const urlsIn = (js: string) => new Set(js.match(/https?:\/\/[^"'`\s)]+/g) ?? []);

  it("is at most 6 KB gzipped and names no host but ours", async () => {
    withEnv({
      EMBED_ALLOWED_ORIGINS: STORES,
      EMBED_JWT_SECRET: "s".repeat(40),
      BETTER_AUTH_URL: "http://desk.example:3000",
    });
    const js = await script();
    expect(gzipSync(js).byteLength).toBeLessThanOrEqual(6 * 1024);
    expect(urlsIn(js)).toEqual(new Set(["http://desk.example:3000"]));
    expect(js).toContain('"enabled":true');
    // Both languages travel with it.
    expect(js).toContain("Chat with support");
    expect(js).toContain("Чат с поддержкой");
  });

  it("another Host, forwarded headers or not, gets the configured origin, never its own", async () => {
    withEnv({
      EMBED_ALLOWED_ORIGINS: STORES,
      EMBED_JWT_SECRET: "s".repeat(40),
      BETTER_AUTH_URL: "https://desk.example",
    });
    const variants: Record<string, string>[] = [
      { host: "evil.example" },
      { host: "evil.example", "x-forwarded-proto": "http", "x-forwarded-host": "evil.example" },
    ];
    for (const headers of variants) {
      const res = await get(headers);
      expect(res.status).toBe(200);
      expect(res.headers.get("vary")).toMatch(/host/i);
      const js = await res.text();
      expect(urlsIn(js)).toEqual(new Set(["https://desk.example"]));
      expect(js).not.toContain("evil.example");
    }
  });

  it("without a configured origin: a loopback Host gets its own, uncached; any other Host is 400", async () => {
    withEnv({ EMBED_ALLOWED_ORIGINS: STORES, EMBED_JWT_SECRET: "s".repeat(40) });
    const local = await get({ host: "localhost:3000" });
    expect(local.status).toBe(200);
    expect(local.headers.get("cache-control")).toBe("no-store");
    expect(urlsIn(await local.text())).toEqual(new Set(["http://localhost:3000"]));
    const evil = await get({ host: "evil.example", "x-forwarded-proto": "https" });
    expect(evil.status).toBe(400);
    expect((await evil.json()).error.code).toBe("invalid_request");
  });

  it("says embedding is off when EMBED_ALLOWED_ORIGINS is not set", async () => {
    const js = await script({ host: "localhost:3000" });
    expect(js).toContain('"enabled":false');
    expect(js).toContain("embedding is off");
  });
});
