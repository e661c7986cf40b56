/**
 * Security headers and session cookies of the production server: what a browser
 * receives on pages, API answers and errors, and the cookie attributes over HTTP and HTTPS.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "@/bench/lib/client";
import { type Server, startServer } from "@/bench/lib/server";
import { send } from "./lib/raw-http";
import { DIST_DIR, startWorld, type World } from "./lib/world";

let w: World;

beforeAll(async () => {
  w = await startWorld();
}, 15 * 60_000);

afterAll(async () => {
  await w?.stop();
});

/** Parses one Set-Cookie line into its name and lower-cased attributes. */
function cookieOf(line: string) {
  const [pair, ...attrs] = line.split(";").map((s) => s.trim());
  const [name] = pair!.split("=");
  const map = new Map(attrs.map((a) => [a.split("=")[0]!.toLowerCase(), a.split("=")[1] ?? ""]));
  return { name: name!, attrs: map };
}

async function signIn(base: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base, ...headers },
    body: JSON.stringify({ email: "boris@example.com", password: DEMO_PASSWORD }),
  });
  expect(res.status).toBe(200);
  return res.headers.getSetCookie().map(cookieOf);
}

describe("security headers", () => {
  const targets: [string, string, string?][] = [
    ["the orders page", "/"],
    ["the sign-in page", "/sign-in"],
    ["a chat page", "/chat/{emptyChat}"],
    ["the health API", "/api/health"],
    ["a JSON API answer", "/api/chats"],
    ["a JSON API error", "/api/chats/unknown"],
    ["a refused POST", "/api/actions/unknown/confirm", "POST"],
    ["an unknown API path", "/api/nope"],
    ["the HTML 404 page", "/no-such-page"],
  ];

  it.each(targets)("%s carries them", async (_, rawPath, method = "GET") => {
    const res = await send(w.base, {
      method,
      path: rawPath.replace("{emptyChat}", w.ids.emptyChat!),
      headers: { cookie: w.anna.cookie },
    });
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'self'");
    expect(csp).toContain("form-action 'self'");
    // eval is for the dev server's hot reload only.
    expect(csp).not.toContain("unsafe-eval");
    expect(res.headers["x-frame-options"]).toBe("DENY");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(res.headers["x-powered-by"]).toBeUndefined();
  });

  it("answers a confirm uncompressed (small, and gzip would queue it behind sign-in hashing)", async () => {
    const res = await w.anna.fetch(`/api/actions/${w.ids.pendingAction}/confirm`, {
      method: "POST",
      headers: { "accept-encoding": "gzip, deflate, br" },
    });
    expect(res.status).toBe(200);
    // Over the 1 KB threshold at which Next would otherwise compress.
    expect((await res.text()).length).toBeGreaterThan(1024);
    expect(res.headers.get("cache-control")).toContain("no-transform");
    expect(res.headers.get("content-encoding")).toBeNull();
  });

  // After the decision test: a new chat supersedes the proposal it cancels.
  it("serves the chat turn as an untransformed stream (no gzip, no proxy buffering)", async () => {
    const chat = await w.anna.newChat();
    const res = await w.anna.fetch(`/api/chats/${chat}/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "accept-encoding": "gzip, deflate, br" },
      body: JSON.stringify({ text: "Where is order 8041?" }),
    });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    expect(res.headers.get("cache-control")).toContain("no-transform");
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(await res.text()).toContain("8041");
  });

  it("keeps session-bound API answers out of shared caches", async () => {
    const res = await w.anna.fetch(`/api/chats/${w.ids.pendingChat}`);
    expect(res.headers.get("cache-control") ?? "").toMatch(/no-store|private/);
  });
});

describe("session cookies", () => {
  it("over plain HTTP: HttpOnly, SameSite=Lax, Path=/, not Secure (or the browser drops it)", async () => {
    const [session] = (await signIn(w.base)).filter((c) => c.name.endsWith("session_token"));
    expect(session?.name).toBe("better-auth.session_token");
    expect(session?.attrs.has("httponly")).toBe(true);
    expect(session?.attrs.get("samesite")?.toLowerCase()).toBe("lax");
    expect(session?.attrs.get("path")).toBe("/");
    expect(session?.attrs.has("secure")).toBe(false);
  });

  it("behind a TLS proxy (X-Forwarded-Proto: https): every cookie is also Secure", async () => {
    // The browser behind a TLS proxy is on https: its Origin says so (the origin check compares
    // the scheme too).
    const cookies = await signIn(w.base, {
      "x-forwarded-proto": "https",
      origin: w.base.replace(/^http:/, "https:"),
    });
    expect(cookies.length).toBeGreaterThan(0);
    for (const c of cookies) {
      expect(c.attrs.has("secure"), c.name).toBe(true);
      expect(c.attrs.has("httponly"), c.name).toBe(true);
    }
  });

  it("sign-out expires the session cookie", async () => {
    const res = await w.boris.fetch("/api/auth/sign-out", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(200);
    const session = res.headers
      .getSetCookie()
      .map(cookieOf)
      .find((c) => c.name.endsWith("session_token"));
    expect(session?.attrs.get("max-age")).toBe("0");
    const after = await w.boris.fetch("/api/chats");
    expect(after.status).toBe(401);
  });
});

describe("session cookies with an https BETTER_AUTH_URL", () => {
  let server: Server;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-https-"));
    server = await startServer({
      distDir: DIST_DIR,
      dbPath: path.join(dir, "app.db"),
      env: { BETTER_AUTH_URL: "https://returns.example" },
    });
  }, 5 * 60_000);

  afterAll(async () => {
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("uses the __Host- prefix and Secure on every cookie, and sends HSTS", async () => {
    // Our own page's Origin is the configured one, not the address the test reaches.
    const cookies = await signIn(server.url, { origin: "https://returns.example" });
    const session = cookies.find((c) => c.name.endsWith("session_token"));
    expect(session?.name).toBe("__Host-better-auth.session_token");
    for (const c of cookies) {
      expect(c.attrs.has("secure"), c.name).toBe(true);
      expect(c.attrs.get("path"), c.name).toBe("/");
      expect(c.attrs.has("domain"), c.name).toBe(false);
    }
    const page = await fetch(`${server.url}/sign-in`);
    expect(page.headers.get("strict-transport-security")).toBe("max-age=31536000");
  });
});
