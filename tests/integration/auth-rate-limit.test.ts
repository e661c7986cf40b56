/**
 * Sign-in throttling. The route handlers are called as the production
 * server (scripts/serve.mjs) calls them: the socket's address in our own header. A made-up
 * X-Forwarded-For changes nothing unless TRUST_PROXY says a proxy of ours put it there; and
 * whatever the address, one account gets a limited number of wrong passwords.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as authPost } from "@/app/api/auth/[...all]/route";
import { getDb } from "@/db";
import { rateWindows } from "@/db/schema";
import {
  beginSignInAttempt,
  resetAccountThrottle,
  settleSignInAttempt,
} from "@/lib/auth/account-throttle";
import { resetEnv } from "@/lib/env";
import { useTestDatabase } from "../helpers/db";
import { request } from "../helpers/http";

const PEER_HEADER = "x-returns-desk-peer";
const MARK = Symbol.for("returns-desk.peer-header");
const g = globalThis as Record<symbol, unknown>;

let n = 0;
/** A fresh socket address for each test, so the address limiter of one never touches another. */
const nextPeer = () => `192.0.2.${++n}`;

const signIn = (
  email: string,
  password: string,
  { peer, forwardedFor }: { peer?: string; forwardedFor?: string } = {},
) =>
  authPost(
    request("/api/auth/sign-in/email", {
      body: { email, password },
      headers: {
        ...(peer ? { [PEER_HEADER]: peer } : {}),
        ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}),
      },
    }),
  );

describe("sign-in throttling", () => {
  beforeAll(async () => {
    await useTestDatabase({
      env: {
        AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE: "3",
        AUTH_ACCOUNT_MAX_FAILURES: "4",
      },
    });
  });
  afterEach(async () => {
    vi.useRealTimers();
    g[MARK] = "x-returns-desk-peer";
    delete process.env.TRUST_PROXY;
    resetEnv();
    await resetAccountThrottle();
  });
  afterAll(() => {
    delete g[MARK];
    process.env.AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE = "100000";
    delete process.env.AUTH_ACCOUNT_MAX_FAILURES;
    resetEnv();
  });

  it("keys the address limiter by the socket: a rotating X-Forwarded-For is still one client", async () => {
    g[MARK] = PEER_HEADER;
    const peer = nextPeer();
    for (let i = 0; i < 3; i++) {
      const res = await signIn(`nobody-${i}@example.com`, "wrong-password", {
        peer,
        forwardedFor: `203.0.113.${i + 1}`,
      });
      expect(res.status).toBe(401);
    }
    const limited = await signIn("anna@example.com", "returns-demo", {
      peer,
      forwardedFor: "203.0.113.99",
    });
    expect(limited.status).toBe(429);
    expect((await limited.json()).error.code).toBe("rate_limited");
    // Another socket is another client.
    expect((await signIn("anna@example.com", "returns-demo", { peer: nextPeer() })).status).toBe(
      200,
    );
  });

  it("believes X-Forwarded-For with TRUST_PROXY: the address the proxy saw is the client", async () => {
    g[MARK] = PEER_HEADER;
    process.env.TRUST_PROXY = "1";
    resetEnv();
    const proxy = nextPeer();
    // What the client claims (leftmost) is ignored; what our proxy appended (rightmost) counts.
    for (let i = 0; i < 3; i++)
      expect(
        (
          await signIn(`nobody-${i}@example.com`, "wrong-password", {
            peer: proxy,
            forwardedFor: `10.9.9.${i}, 198.51.100.7`,
          })
        ).status,
      ).toBe(401);
    const limited = await signIn("anna@example.com", "returns-demo", {
      peer: proxy,
      forwardedFor: "198.51.100.7",
    });
    expect(limited.status).toBe(429);
    const other = await signIn("anna@example.com", "returns-demo", {
      peer: proxy,
      forwardedFor: "198.51.100.8",
    });
    expect(other.status).toBe(200);
  });

  it("without a socket address it knows (not our server) a made-up X-Forwarded-For is ignored", async () => {
    delete g[MARK];
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (
          await signIn(`nobody-${i}@example.com`, "wrong-password", {
            forwardedFor: `203.0.113.${i + 1}`,
          })
        ).status,
      );
    expect(statuses).toContain(429);
  });

  it("limits wrong passwords per account whatever the address, with Retry-After", async () => {
    g[MARK] = PEER_HEADER;
    for (let i = 0; i < 4; i++)
      expect((await signIn("boris@example.com", `guess-${i}`, { peer: nextPeer() })).status).toBe(
        401,
      );
    // Locked: even the right password, even from a new address, and however the email is written.
    for (const email of ["boris@example.com", "  BORIS@example.com "]) {
      const res = await signIn(email, "returns-demo", { peer: nextPeer() });
      expect(res.status).toBe(429);
      expect((await res.json()).error.code).toBe("rate_limited");
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // Other accounts are not affected.
    expect((await signIn("anna@example.com", "returns-demo", { peer: nextPeer() })).status).toBe(
      200,
    );
  });

  it("a successful sign-in clears the account's failures", async () => {
    g[MARK] = PEER_HEADER;
    for (let i = 0; i < 3; i++)
      expect((await signIn("anna@example.com", `guess-${i}`, { peer: nextPeer() })).status).toBe(
        401,
      );
    expect((await signIn("anna@example.com", "returns-demo", { peer: nextPeer() })).status).toBe(
      200,
    );
    for (let i = 0; i < 3; i++)
      expect((await signIn("anna@example.com", `again-${i}`, { peer: nextPeer() })).status).toBe(
        401,
      );
  });

  it("an attempt that checked no password gives its slot back, and only its own", async () => {
    const email = "boris@example.com";
    // Four attempts (the allowance) that ended without a password check: none stays counted.
    for (let i = 0; i < 4; i++) {
      const attempt = await beginSignInAttempt(email, 1_000 + i);
      await settleSignInAttempt(attempt, i % 2 ? 500 : 400);
    }
    for (let i = 0; i < 3; i++)
      await settleSignInAttempt(await beginSignInAttempt(email, 2_000 + i), 401);
    // Giving back an attempt's slot twice, or one never taken, takes no wrong password back.
    const open = await beginSignInAttempt(email, 3_000);
    await settleSignInAttempt(open, 503);
    await settleSignInAttempt(open, 503);
    await settleSignInAttempt({ ...open, at: 9_999 }, 503);
    await settleSignInAttempt(await beginSignInAttempt(email, 3_001), 401);
    // Three wrong passwords and this one: the allowance is used up.
    await expect(beginSignInAttempt(email, 3_002)).rejects.toMatchObject({ code: "rate_limited" });
  });

  // The lock held only for JSON bodies; better-auth also takes a form.
  it("a form-encoded sign-in is refused (415) and creates no session, locked account or not", async () => {
    g[MARK] = PEER_HEADER;
    const form = (email: string, password: string) =>
      authPost(
        request("/api/auth/sign-in/email", {
          raw: new URLSearchParams({ email, password }).toString(),
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            [PEER_HEADER]: nextPeer(),
          },
        }),
      );
    const open = await form("anna@example.com", "returns-demo");
    expect(open.status).toBe(415);
    expect((await open.json()).error.code).toBe("unsupported_media_type");
    expect(open.headers.getSetCookie()).toEqual([]);
    for (let i = 0; i < 4; i++)
      expect((await signIn("boris@example.com", `guess-${i}`, { peer: nextPeer() })).status).toBe(
        401,
      );
    const locked = await form("boris@example.com", "returns-demo");
    expect(locked.status).not.toBe(200);
    expect(locked.headers.getSetCookie()).toEqual([]);
    expect((await signIn("boris@example.com", "returns-demo", { peer: nextPeer() })).status).toBe(
      429,
    );
  });

  it("parallel wrong passwords: only the account's allowance is tried, the rest get 429", async () => {
    g[MARK] = PEER_HEADER;
    const statuses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        signIn("boris@example.com", `parallel-${i}`, { peer: nextPeer() }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 401)).toHaveLength(4);
    expect(statuses.filter((s) => s === 429)).toHaveLength(8);
  });

  it("the lock lifts once the window has passed", async () => {
    g[MARK] = PEER_HEADER;
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    for (let i = 0; i < 4; i++)
      expect((await signIn("boris@example.com", `guess-${i}`, { peer: nextPeer() })).status).toBe(
        401,
      );
    const locked = await signIn("boris@example.com", "returns-demo", { peer: nextPeer() });
    expect(locked.status).toBe(429);
    const retryAfter = Number(locked.headers.get("retry-after"));
    // Default window: 900 s. One second before it ends, still locked; at its end, open.
    expect(retryAfter).toBe(900);
    vi.setSystemTime(Date.now() + (retryAfter - 1) * 1000);
    expect((await signIn("boris@example.com", "returns-demo", { peer: nextPeer() })).status).toBe(
      429,
    );
    vi.setSystemTime(Date.now() + 1000);
    expect((await signIn("boris@example.com", "returns-demo", { peer: nextPeer() })).status).toBe(
      200,
    );
  });

  // The body was read whole and the email stored as the limiter's key.
  it("caps the body at 8 KiB and the email at 254 characters; the limiter stores no email", async () => {
    g[MARK] = PEER_HEADER;
    const huge = `${"a".repeat(3_000_000)}@example.com`;
    for (let i = 0; i < 3; i++) {
      const res = await signIn(huge, "wrong-password", { peer: nextPeer() });
      expect(res.status).toBe(413);
      expect((await res.json()).error.code).toBe("payload_too_large");
    }
    // A streamed body with no Content-Length is cut off at the cap too.
    const bytes = new TextEncoder().encode(JSON.stringify({ email: huge, password: "x" }));
    const streamed = await authPost(
      new Request("http://localhost:3000/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json", [PEER_HEADER]: nextPeer() },
        body: new ReadableStream({
          start(c) {
            for (let i = 0; i < bytes.length; i += 16_384) c.enqueue(bytes.subarray(i, i + 16_384));
            c.close();
          },
        }),
        duplex: "half",
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);
    const long = `${"b".repeat(243)}@example.com`; // 255 characters
    const tooLong = await signIn(long, "wrong-password", { peer: nextPeer() });
    expect(tooLong.status).toBe(400);
    expect((await tooLong.json()).error.code).toBe("invalid_request");
    expect(await getDb().select().from(rateWindows)).toEqual([]);

    const longest = `${"c".repeat(242)}@example.com`; // 254: counted, under a hash
    expect((await signIn(longest, "wrong-password", { peer: nextPeer() })).status).toBe(401);
    const rows = await getDb().select().from(rateWindows);
    expect(rows.map((r) => r.key)).toEqual([expect.stringMatching(/^signin:[0-9a-f]{64}$/)]);
  });
});
