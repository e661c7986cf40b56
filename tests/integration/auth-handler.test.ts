/**
 * What better-auth's configuration (lib/auth/auth.ts) and the request guard in front of it
 * (lib/auth/sign-in-guard.ts, lib/auth/secure-cookies.ts) promise, seen through the real route
 * handler (app/api/auth/[...all]): the session cookie's attributes and lifetime, `Secure` where
 * the request came over HTTPS, the routes that are switched off, the origin check, which requests
 * are counted by the limiters, and the answers a client gets for a body better-auth refuses.
 *
 * Each test gets its own database, so each builds its own better-auth instance (getAuth): the
 * configuration it checks is then the one that test ran with.
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GET as authGet, POST as authPost } from "@/app/api/auth/[...all]/route";
import { POST as newChat } from "@/app/api/chats/route";
import { getDb } from "@/db";
import { rateLimit, rateWindows, session, user } from "@/db/schema";
import { DEMO_PASSWORD } from "@/db/seed-data";
import { beginSignInAttempt, resetAccountThrottle } from "@/lib/auth/account-throttle";
import { withSecureCookies } from "@/lib/auth/secure-cookies";
import { getCurrentUser } from "@/lib/auth/session";
import { resetEnv } from "@/lib/env";
import { useTestDatabase } from "../helpers/db";
import { BASE, call, request, signIn } from "../helpers/http";

const DAY_S = 24 * 60 * 60;
const SESSION_COOKIE = "better-auth.session_token";

type Init = { url?: string; headers?: Record<string, string>; raw?: string; body?: unknown };

/** A sign-in request as a browser sends it, to any URL (http or https). */
function signInRequest({ url = `${BASE}/api/auth/sign-in/email`, headers = {}, raw, body }: Init) {
  const text =
    raw ?? JSON.stringify(body ?? { email: "anna@example.com", password: DEMO_PASSWORD });
  return new Request(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: text,
  });
}

const sessionCookie = (res: Response) =>
  res.headers.getSetCookie().find((c) => c.includes(`${SESSION_COOKIE}=`));
/** The attributes after name=value, as written. */
const attributes = (cookie: string | undefined) =>
  (cookie ?? "")
    .split(";")
    .slice(1)
    .map((a) => a.trim());
const secureCount = (cookie: string | undefined) =>
  attributes(cookie).filter((a) => a.toLowerCase() === "secure").length;

describe("the session cookie", () => {
  beforeEach(async () => {
    await useTestDatabase();
  });

  it("over plain http: HttpOnly, SameSite=Lax, whole site, a week, not Secure", async () => {
    const res = await authPost(signInRequest({}));
    expect(res.status).toBe(200);
    const cookie = sessionCookie(res);
    expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=`));
    const attrs = attributes(cookie).map((a) => a.toLowerCase());
    expect(attrs).toEqual(
      expect.arrayContaining(["httponly", "samesite=lax", "path=/", `max-age=${7 * DAY_S}`]),
    );
    expect(secureCount(cookie)).toBe(0);
  });

  it("is Secure, once, when the request itself came over https", async () => {
    const res = await authPost(
      signInRequest({ url: "https://localhost:3000/api/auth/sign-in/email" }),
    );
    expect(res.status).toBe(200);
    expect(secureCount(sessionCookie(res))).toBe(1);
  });

  it("believes the first X-Forwarded-Proto, in any case and spacing", async () => {
    const behindTls = await authPost(
      signInRequest({ headers: { "x-forwarded-proto": " HTTPS , http" } }),
    );
    expect(behindTls.status).toBe(200);
    expect(secureCount(sessionCookie(behindTls))).toBe(1);
    // The proxy says the client used plain http: a Secure cookie would never come back.
    const plain = await authPost(
      signInRequest({
        url: "https://localhost:3000/api/auth/sign-in/email",
        headers: { "x-forwarded-proto": "http" },
      }),
    );
    expect(plain.status).toBe(200);
    expect(secureCount(sessionCookie(plain))).toBe(0);
  });

  it("adds Secure without touching status, Location or a cookie already Secure", async () => {
    const res = new Response(null, {
      status: 302,
      statusText: "Found",
      headers: [
        ["location", "/chat"],
        ["set-cookie", "a=1;Secure;Path=/"],
        ["set-cookie", "b=2; Path=/"],
      ],
    });
    const out = withSecureCookies(new Request("https://desk.example/api/auth/x"), res);
    expect(out.status).toBe(302);
    expect(out.statusText).toBe("Found");
    expect(out.headers.get("location")).toBe("/chat");
    expect(out.headers.getSetCookie()).toEqual(["a=1;Secure;Path=/", "b=2; Path=/; Secure"]);
    // Over http nothing changes.
    const plain = withSecureCookies(new Request("http://desk.example/api/auth/x"), res);
    expect(plain.headers.getSetCookie()).toEqual(["a=1;Secure;Path=/", "b=2; Path=/"]);
  });
});

describe("the session cookie with BETTER_AUTH_URL", () => {
  afterEach(async () => {
    delete process.env.BETTER_AUTH_URL;
    resetEnv();
  });

  it("https: the __Host- cookie (Secure once, Path=/, no Domain), even on a request that looks like http", async () => {
    process.env.BETTER_AUTH_URL = "https://localhost:3000";
    await useTestDatabase();
    const res = await authPost(signInRequest({}));
    expect(res.status).toBe(200);
    const cookies = res.headers.getSetCookie();
    const cookie = cookies.find((c) => c.startsWith(`__Host-${SESSION_COOKIE}=`));
    expect(cookie).toBeDefined();
    expect(secureCount(cookie)).toBe(1);
    expect(attributes(cookie)).toContain("Path=/");
    expect(attributes(cookie).some((a) => /^domain=/i.test(a))).toBe(false);
    // Every cookie the sign-in sets is a __Host- one; none falls back to __Secure-.
    for (const c of cookies) expect(c).toMatch(/^__Host-/);
    // The __Host- cookie signs in.
    const chats = await call(
      newChat,
      "/api/chats",
      {},
      { method: "POST", cookie: cookie!.split(";")[0]! },
    );
    expect(chats.status).toBe(201);
  });

  it("http: a plain cookie, not Secure", async () => {
    process.env.BETTER_AUTH_URL = "http://localhost:3000";
    await useTestDatabase();
    const res = await authPost(signInRequest({}));
    expect(res.status).toBe(200);
    const cookie = sessionCookie(res);
    expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=`));
    expect(secureCount(cookie)).toBe(0);
  });
});

describe("the session's lifetime", () => {
  beforeAll(async () => {
    await useTestDatabase();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const expiry = async (token: string) => {
    const [row] = await getDb()
      .select({ expiresAt: session.expiresAt })
      .from(session)
      .where(eq(session.token, token));
    return row?.expiresAt.getTime();
  };

  it("lasts a week from sign-in and is extended at most once a day", async () => {
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    const cookie = await signIn("anna@example.com");
    const token = decodeURIComponent(cookie.split("=")[1]!).split(".")[0]!;
    const first = await expiry(token);
    expect(Math.round((first! - start) / 1000)).toBe(7 * DAY_S);

    // An hour later: the session is read, not extended, and no cookie is sent.
    vi.setSystemTime(start + 60 * 60 * 1000);
    const early = await authGet(request("/api/auth/get-session", { cookie }));
    expect(early.status).toBe(200);
    expect((await early.json()).user.email).toBe("anna@example.com");
    expect(early.headers.getSetCookie()).toEqual([]);
    expect(await expiry(token)).toBe(first);

    // A day and an hour later: a week from now again, and a fresh cookie.
    const later = start + (DAY_S + 60 * 60) * 1000;
    vi.setSystemTime(later);
    const refreshed = await authGet(request("/api/auth/get-session", { cookie }));
    expect(refreshed.status).toBe(200);
    expect(Math.round(((await expiry(token))! - later) / 1000)).toBe(7 * DAY_S);
    expect(sessionCookie(refreshed)).toBeDefined();
  });
});

describe("what better-auth refuses by configuration", () => {
  beforeEach(async () => {
    await useTestDatabase();
  });

  const nameOf = async (email: string) =>
    (await getDb().select({ name: user.name }).from(user).where(eq(user.email, email)))[0]?.name;

  it("a customer cannot rename the account: update-user is 404 and the name stays", async () => {
    const cookie = await signIn("anna@example.com");
    const before = await nameOf("anna@example.com");
    const res = await authPost(
      request("/api/auth/update-user", {
        cookie,
        body: { name: "Sam Support" },
        headers: { origin: BASE, host: "localhost:3000" },
      }),
    );
    expect(res.status).toBe(404);
    expect(await nameOf("anna@example.com")).toBe(before);
  });

  it("nobody signs up: the sign-up route is refused and writes no user", async () => {
    const users = async () => (await getDb().select({ id: user.id }).from(user)).length;
    const before = await users();
    const res = await authPost(
      request("/api/auth/sign-up/email", {
        body: { email: "new@example.com", password: "long enough 123", name: "New" },
      }),
    );
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await users()).toBe(before);
    expect(await nameOf("new@example.com")).toBeUndefined();
  });

  it("a sign-in from another site's page is refused; from this host's page it works", async () => {
    const foreign = await authPost(
      signInRequest({ headers: { origin: "https://evil.example", host: "localhost:3000" } }),
    );
    expect(foreign.status).toBe(403);
    expect(foreign.headers.getSetCookie()).toEqual([]);
    // Next.js may report req.url as localhost when bound to 127.0.0.1: the Host header decides.
    const own = await authPost(
      signInRequest({ headers: { origin: "http://127.0.0.1:3000", host: "127.0.0.1:3000" } }),
    );
    expect(own.status).toBe(200);
  });

  it("counts sign-ins in the database, never session reads", async () => {
    const rows = () => getDb().select({ key: rateLimit.key }).from(rateLimit);
    await getDb().delete(rateLimit);
    const cookie = await signIn("boris@example.com");
    expect((await rows()).map((r) => r.key)).toEqual([expect.stringContaining("/sign-in/email")]);
    await getDb().delete(rateLimit);
    for (let i = 0; i < 3; i++)
      expect((await authGet(request("/api/auth/get-session", { cookie }))).status).toBe(200);
    expect(await rows()).toEqual([]);
  });

  it("chats are for customers: a staff session gets 403", async () => {
    const cookie = await signIn("staff@example.com");
    const res = await call(newChat, "/api/chats", {}, { method: "POST", cookie, body: {} });
    expect(res.status).toBe(403);
    expect((await res.json()).error).toMatchObject({
      code: "forbidden",
      message: "Chats are for customers.",
    });
  });

  it("a session tells the routes its user's role, language, guest flag and store page", async () => {
    const cookie = await signIn("boris@example.com");
    expect(await getCurrentUser(new Headers({ cookie }))).toMatchObject({
      email: "boris@example.com",
      role: "customer",
      locale: null,
      guest: false,
      embedOrigin: null,
    });
    // What the language picker, the guest route and the store's session write.
    await getDb()
      .update(user)
      .set({ locale: "ru", guest: true })
      .where(eq(user.email, "boris@example.com"));
    const token = decodeURIComponent(cookie.split("=")[1]!).split(".")[0]!;
    await getDb()
      .update(session)
      .set({ embedOrigin: "http://127.0.0.1:4100" })
      .where(eq(session.token, token));
    expect(await getCurrentUser(new Headers({ cookie }))).toMatchObject({
      email: "boris@example.com",
      locale: "ru",
      guest: true,
      embedOrigin: "http://127.0.0.1:4100",
    });
    const staff = await signIn("staff@example.com");
    expect((await getCurrentUser(new Headers({ cookie: staff })))?.role).toBe("staff");
  });
});

describe("what the guard answers before better-auth", () => {
  beforeEach(async () => {
    await useTestDatabase();
  });
  afterEach(async () => {
    vi.useRealTimers();
    await resetAccountThrottle();
  });

  const counted = async () => (await getDb().select().from(rateWindows)).length;

  it("a sign-in that is not JSON: 415 saying what to send", async () => {
    const res = await authPost(
      signInRequest({ raw: "email=anna@example.com", headers: { "content-type": "text/plain" } }),
    );
    expect(res.status).toBe(415);
    expect((await res.json()).error).toEqual({
      code: "unsupported_media_type",
      message: "Send the sign-in as application/json.",
    });
  });

  it("an email over 254 characters: 400 naming the limit", async () => {
    const res = await authPost(
      signInRequest({ body: { email: `${"b".repeat(243)}@example.com`, password: "x" } }),
    );
    expect(res.status).toBe(400);
    expect((await res.json()).error).toEqual({
      code: "invalid_request",
      message: "email: at most 254 characters.",
    });
  });

  it.each([
    ["null", "null"],
    ["no email", JSON.stringify({ password: "wrong-password" })],
    ["a number for the email", JSON.stringify({ email: 12345, password: "wrong-password" })],
    ["broken JSON", '{"email": "anna@example.com", '],
  ])("a body with %s: better-auth's 400, nothing counted", async (_what, raw) => {
    const res = await authPost(signInRequest({ raw }));
    expect(res.status).toBe(400);
    expect(await counted()).toBe(0);
  });

  it("a GET on the sign-in path is not read as a sign-in", async () => {
    const res = await authGet(request("/api/auth/sign-in/email"));
    expect(res.status).not.toBe(415);
    expect(res.status).toBe(404);
    expect(await counted()).toBe(0);
  });

  it("sign-out needs no JSON: with no body at all, or an empty one, the session ends", async () => {
    for (const headers of [{}, { "content-type": "application/json" }] as Record<
      string,
      string
    >[]) {
      const cookie = await signIn("anna@example.com");
      const res = await authPost(
        new Request(`${BASE}/api/auth/sign-out`, {
          method: "POST",
          // A browser's sign-out from our own page: a request with a session must name its origin.
          headers: { ...headers, cookie, origin: BASE, host: "localhost:3000" },
        }),
      );
      expect(res.status).toBe(200);
      expect(attributes(sessionCookie(res)).map((a) => a.toLowerCase())).toContain("max-age=0");
      const after = await authGet(request("/api/auth/get-session", { cookie }));
      expect(await after.json()).toBeNull();
    }
  });

  it("a locked account's 429 says when to try again, in the body and in Retry-After", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    for (let i = 0; i < 5; i++)
      expect(
        (
          await authPost(
            signInRequest({ body: { email: "boris@example.com", password: `guess-${i}` } }),
          )
        ).status,
      ).toBe(401);
    const res = await authPost(
      signInRequest({ body: { email: "boris@example.com", password: DEMO_PASSWORD } }),
    );
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("900");
    expect((await res.json()).error).toEqual({
      code: "rate_limited",
      message: "Too many failed sign-ins for this account. Try again in 900 s.",
      retryAfterSeconds: 900,
    });
  });

  it("one account's lock is not another's: case folds, but ß is not ss", async () => {
    for (let i = 0; i < 5; i++) await beginSignInAttempt("strasse@example.com", 1_000 + i);
    await expect(beginSignInAttempt("STRASSE@example.com", 2_000)).rejects.toMatchObject({
      code: "rate_limited",
    });
    await expect(beginSignInAttempt("straße@example.com", 2_000)).resolves.toBeDefined();
  });
});

describe("the address limiter without a socket address", () => {
  const MARK = Symbol.for("returns-desk.peer-header");
  const g = globalThis as Record<symbol, unknown>;
  beforeAll(async () => {
    delete g[MARK];
    await useTestDatabase({ env: { AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE: "3" } });
  });
  afterAll(async () => {
    await resetAccountThrottle();
    process.env.AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE = "100000";
    resetEnv();
  });

  it("ignores an address header the client wrote itself: still one shared bucket", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (
          await authPost(
            signInRequest({
              body: { email: `nobody-${i}@example.com`, password: "wrong-password" },
              headers: { "x-returns-desk-client": `203.0.113.${i + 1}` },
            }),
          )
        ).status,
      );
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.slice(3)).toEqual([429, 429]);
  });
});
