/**
 * Better-auth printed its own errors with console.error (its router's
 * "# SERVER_ERROR" line and its default logger), past our logger and its redaction. When the
 * database fails, those errors are drizzle's "Failed query ... params: ..." with the session
 * token among the parameters. Here the session table goes missing under a signed-in request:
 * nothing reaches the console, the log has the error by name and code only, and the client gets
 * the contract's 500.
 */
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as authGet, POST as authPost } from "@/app/api/auth/[...all]/route";
import { getAuth } from "@/lib/auth/auth";
import { setLogDestination } from "@/lib/log";
import { sqliteClient, useTestDatabase } from "../helpers/db";
import { request, signIn } from "../helpers/http";

describe("better-auth's errors go through our logger", () => {
  const lines: string[] = [];
  const consoleOut: string[] = [];
  let cookie: string;
  beforeAll(async () => {
    await useTestDatabase();
    cookie = await signIn("anna@example.com");
    setLogDestination(
      new Writable({
        write(chunk, _enc, done) {
          lines.push(...String(chunk).split("\n").filter(Boolean));
          done();
        },
      }),
    );
    for (const level of ["error", "warn", "log", "info", "debug"] as const)
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        consoleOut.push(
          args
            .map((a) => (a instanceof Error ? `${a.stack} ${String(a.cause)}` : String(a)))
            .join(" "),
        );
      });
  });
  afterAll(() => {
    vi.restoreAllMocks();
    setLogDestination(undefined);
  });

  it("a failing session lookup: no console output, no token in the log, a JSON 500", async () => {
    const token = decodeURIComponent(cookie.split("=")[1]!).split(".")[0]!;
    expect(token.length).toBeGreaterThan(16);
    sqliteClient().exec("ALTER TABLE session RENAME TO session_gone");
    try {
      const got = await authGet(request("/api/auth/get-session", { cookie }));
      expect(got.status).toBe(500);
      expect((await got.json()).error.code).toBe("failed_to_get_session");
    } finally {
      sqliteClient().exec("ALTER TABLE session_gone RENAME TO session");
    }
    // A sign-in whose user lookup fails: the failed query's parameter is the email.
    sqliteClient().exec('ALTER TABLE "user" RENAME TO user_gone');
    try {
      const res = await authPost(
        request("/api/auth/sign-in/email", {
          body: { email: "anna@example.com", password: "returns-demo" },
        }),
      );
      expect(res.status).toBe(500);
    } finally {
      sqliteClient().exec('ALTER TABLE user_gone RENAME TO "user"');
    }
    expect(consoleOut).toEqual([]);
    const errors = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    // Both failures are in the log, as JSON lines with the request's id and the error's name.
    expect(errors.filter((l) => l.level === "error").length).toBeGreaterThanOrEqual(2);
    for (const l of errors) expect(typeof l.requestId).toBe("string");
    expect(errors).toContainEqual(
      expect.objectContaining({
        msg: "unhandled error",
        err: { name: "Error", code: "SQLITE_ERROR" },
      }),
    );
    const everything = lines.join("\n");
    expect(everything).not.toContain(token);
    expect(everything).not.toContain("session_gone");
    expect(everything).not.toContain("anna@example.com");
    expect(everything).not.toMatch(/params/i);
  });

  it("what better-auth logs itself: the message's first line, never a query, an error by name and code", () => {
    const logger = getAuth().options.logger;
    const logged = () => JSON.parse(lines.at(-1)!) as Record<string, unknown>;
    logger?.log?.("error", "Session refresh failed\nat line two with anna@example.com");
    expect(logged()).toMatchObject({
      level: "error",
      source: "better-auth",
      msg: "Session refresh failed",
    });
    expect(logged().err).toBeUndefined();
    logger?.log?.("error", `${"x".repeat(250)}`);
    expect(logged().msg).toBe("x".repeat(200));
    for (const query of [
      'Failed query: select "id" from "session" where "token" = ?',
      "params: tok_123",
      'update "user" set "name" = ?',
    ]) {
      logger?.log?.("error", query);
      expect(logged().msg).toBe("database error");
    }
    // The error is found among the arguments (not the first, and not a null before it).
    const err = Object.assign(new Error("duplicate key anna@example.com"), { code: "23505" });
    logger?.log?.("error", "create failed", "a string", null, err);
    expect(logged()).toMatchObject({
      source: "better-auth",
      msg: "create failed",
      err: { name: "Error", code: "23505" },
    });
    expect(lines.at(-1)).not.toContain("anna@example.com");
    logger?.log?.("warn", "only words", "not an error");
    expect(logged()).toMatchObject({ level: "warn", msg: "only words" });
    expect(logged().err).toBeUndefined();
    expect(consoleOut).toEqual([]);
  });

  it("trusts the origin the request was sent to, scheme included, and no other", async () => {
    const trusted = getAuth().options.trustedOrigins as (r?: Request) => Promise<string[]>;
    expect(
      await trusted(
        new Request("http://x/api/auth/sign-in", { headers: { host: "shop.example:3000" } }),
      ),
    ).toEqual(["http://shop.example:3000"]);
    expect(
      await trusted(
        new Request("https://x/api/auth/sign-in", { headers: { host: "shop.example:3000" } }),
      ),
    ).toEqual(["https://shop.example:3000"]);
    expect(await trusted(undefined)).toEqual([]);
  });
});
