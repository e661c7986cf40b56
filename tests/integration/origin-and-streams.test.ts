/**
 * Behaviours only the system suite (a built server) checked, so they
 * could break with every in-process test green. Through the real route handlers:
 * - `Origin: null` (a sandboxed frame, a `data:` page, some redirects) is another site: a
 *   signed-in state change is refused with 403 and changes nothing;
 * - a streamed body over 64 KiB with no Content-Length (chunked) is cut off at the cap: 413
 *   `payload_too_large`, never read whole, nothing stored;
 * - a body whose connection breaks off mid-stream (the client closed the tab, ECONNRESET) is a
 *   400 `invalid_request`, not a 500 with an "unhandled error" log line, and nothing is stored.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { POST as authPost } from "@/app/api/auth/[...all]/route";
import { POST as sendRoute } from "@/app/api/chats/[id]/messages/route";
import { POST as createChatRoute } from "@/app/api/chats/route";
import { getDb } from "@/db";
import { chats } from "@/db/schema";
import { resetEnv } from "@/lib/env";
import { Customer } from "../helpers/chat";
import { useTestDatabase } from "../helpers/db";
import { BASE, call, request } from "../helpers/http";
import { messageCount } from "../helpers/inspect";

const chatCount = async () => (await getDb().select({ id: chats.id }).from(chats)).length;

/** A request body that arrives in 16 KiB chunks with no Content-Length, as `chunked` does. */
function streamed(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(c) {
      if (sent >= bytes.length) return c.close();
      c.enqueue(bytes.subarray(sent, sent + 16_384));
      sent += 16_384;
    },
  });
}

describe("origin null and streamed bodies, in process", () => {
  let anna: Customer;
  beforeAll(async () => {
    await useTestDatabase();
    anna = await Customer.signIn("anna@example.com");
  });

  it("Origin: null with a valid session: 403 forbidden_origin, no chat created", async () => {
    const before = await chatCount();
    const res = await call(
      createChatRoute,
      "/api/chats",
      {},
      {
        method: "POST",
        cookie: anna.cookie,
        headers: { origin: "null" },
      },
    );
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe("forbidden_origin");
    expect(await chatCount()).toBe(before);
  });

  it.each([
    ["unset", 403, undefined],
    ["1", 201, "1"],
  ])(
    "X-Forwarded-Host naming the Origin's site is believed only with TRUST_PROXY (%s): %i",
    async (_label, status, trust) => {
      if (trust) process.env.TRUST_PROXY = trust;
      else delete process.env.TRUST_PROXY;
      resetEnv();
      try {
        const before = await chatCount();
        const res = await call(
          createChatRoute,
          "/api/chats",
          {},
          {
            method: "POST",
            cookie: anna.cookie,
            headers: {
              origin: "https://evil.example",
              host: "localhost:3000",
              "x-forwarded-host": "evil.example",
              // The proxy says the scheme too: the origin is compared as a whole.
              "x-forwarded-proto": "https",
            },
          },
        );
        expect(res.status).toBe(status);
        if (status === 403) {
          expect((await res.json()).error.code).toBe("forbidden_origin");
          expect(await chatCount()).toBe(before);
        } else expect(await chatCount()).toBe(before + 1);
      } finally {
        delete process.env.TRUST_PROXY;
        resetEnv();
      }
    },
  );

  const createWith = (headers: Record<string, string>) =>
    call(createChatRoute, "/api/chats", {}, { method: "POST", cookie: anna.cookie, headers });

  it.each([
    ["another scheme (https on a plain-http server)", "https://localhost:3000", 403],
    ["another port", "http://localhost:3001", 403],
    ["another host", "http://127.0.0.1:3000", 403],
    ["the same scheme, host and port", "http://localhost:3000", 201],
  ])(
    "the origin is compared as scheme, host and port: %s (%s) is %i",
    async (_what, origin, status) => {
      const before = await chatCount();
      const res = await createWith({ origin, host: "localhost:3000" });
      expect(res.status).toBe(status);
      expect(await chatCount()).toBe(status === 201 ? before + 1 : before);
    },
  );

  it("with BETTER_AUTH_URL the configured origin decides, whatever Host says", async () => {
    process.env.BETTER_AUTH_URL = "https://desk.example";
    resetEnv();
    try {
      expect(
        (await createWith({ origin: "https://desk.example", host: "127.0.0.1:3000" })).status,
      ).toBe(201);
      for (const [origin, host] of [
        ["http://desk.example", "desk.example"],
        ["https://desk.example:8443", "desk.example:8443"],
        ["https://evil.example", "evil.example"],
      ] as const) {
        const res = await createWith({ origin, host });
        expect(res.status, origin).toBe(403);
        expect((await res.json()).error.code).toBe("forbidden_origin");
      }
    } finally {
      delete process.env.BETTER_AUTH_URL;
      resetEnv();
    }
  });

  it("sign-in from another scheme of the same host: 403 and no session", async () => {
    const res = await authPost(
      request("/api/auth/sign-in/email", {
        body: { email: "anna@example.com", password: "returns-demo" },
        headers: { origin: "https://localhost:3000", host: "localhost:3000" },
      }),
    );
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toEqual([]);
    const same = await authPost(
      request("/api/auth/sign-in/email", {
        body: { email: "anna@example.com", password: "returns-demo" },
        headers: { origin: "http://localhost:3000", host: "localhost:3000" },
      }),
    );
    expect(same.status).toBe(200);
  });

  it("Origin: null on sign-in: 403 and no session", async () => {
    const res = await authPost(
      request("/api/auth/sign-in/email", {
        body: { email: "anna@example.com", password: "returns-demo" },
        headers: { origin: "null" },
      }),
    );
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it("a chunked body over 64 KiB without Content-Length: 413 payload_too_large, nothing stored", async () => {
    const chat = await anna.newChat();
    // Valid JSON that would be accepted if it were read whole: short text, a long extra field.
    const bytes = new TextEncoder().encode(
      JSON.stringify({ text: "Where is order 8041?", pad: "x".repeat(70_000) }),
    );
    const req = new Request(`${BASE}/api/chats/${chat}/messages`, {
      method: "POST",
      headers: { cookie: anna.cookie, "content-type": "application/json" },
      body: streamed(bytes),
      duplex: "half",
    } as RequestInit);
    expect(req.headers.get("content-length")).toBeNull();
    const res = await sendRoute(req, { params: Promise.resolve({ id: chat }) });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe("payload_too_large");
    expect(await messageCount(chat)).toBe(0);
  });

  it("a body that breaks off mid-stream: 400 invalid_request, no 500, nothing stored", async () => {
    const chat = await anna.newChat();
    const half = new TextEncoder().encode('{"text": "Cancel order 30');
    let sent = false;
    const req = new Request(`${BASE}/api/chats/${chat}/messages`, {
      method: "POST",
      headers: { cookie: anna.cookie, "content-type": "application/json" },
      body: new ReadableStream<Uint8Array>({
        pull(c) {
          if (sent) return c.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
          sent = true;
          c.enqueue(half);
        },
      }),
      duplex: "half",
    } as RequestInit);
    const res = await sendRoute(req, { params: Promise.resolve({ id: chat }) });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("invalid_request");
    expect(await messageCount(chat)).toBe(0);
  });
});
