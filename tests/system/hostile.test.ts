/**
 * Hostile input against the real production server over loopback. Each case gets
 * the contract's answer (status, JSON error code), never a 5xx or a stack trace, and changes
 * nothing in the database; the server is healthy afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractProblems } from "../helpers/contract";
import { authCases } from "./hostile/cases-auth";
import { cancelCases } from "./hostile/cases-cancel";
import { idCases } from "./hostile/cases-ids";
import { messageCases } from "./hostile/cases-messages";
import { miscCases } from "./hostile/cases-misc";
import { routingCases } from "./hostile/cases-routing";
import type { Case } from "./hostile/types";
import { type Inspector, openInspector } from "./lib/db-snapshot";
import { type RawRequest, send } from "./lib/raw-http";
import { startWorld, type World } from "./lib/world";

const CASES: Case[] = [
  ...idCases,
  ...messageCases,
  ...authCases,
  ...routingCases,
  ...miscCases,
  ...cancelCases,
];

/** What must never reach a client: stack frames, file paths, internal error types. */
const LEAK =
  /\n\s+at\s|node_modules|\.next-system|\/work\/|SqliteError|ZodError|TypeError|ReferenceError/;

let w: World;
let db: Inspector;
let vars: Record<string, string>;

const fill = (s: string) => s.replace(/\{(\w+)\}/g, (m, k: string) => vars[k] ?? m);

function toRequest(c: Case): RawRequest {
  const headers: Record<string, string> = {};
  const who = c.as ?? "anna";
  if (who !== "none") headers.cookie = w[who].cookie;
  let body = c.body;
  if (c.json !== undefined) {
    body = fill(JSON.stringify(c.json));
    headers["content-type"] = "application/json";
  }
  for (const [k, v] of Object.entries(c.headers ?? {})) headers[k] = fill(v);
  return { method: c.method ?? "GET", path: fill(c.path), headers, body, chunked: c.chunked };
}

/** The session cookie with its signature removed, and with one character of it changed. */
function tamperedCookies(cookie: string): { tokenOnly: string; tampered: string } {
  const session = cookie.split("; ").find((c) => c.includes("session_token="))!;
  const [name, value] = session.split("=") as [string, string];
  const [token, sig] = decodeURIComponent(value).split(".") as [string, string];
  const flipped = (sig[0] === "A" ? "B" : "A") + sig.slice(1);
  return {
    tokenOnly: `${name}=${token}`,
    tampered: `${name}=${encodeURIComponent(`${token}.${flipped}`)}`,
  };
}

describe("hostile requests against the production server", () => {
  beforeAll(async () => {
    w = await startWorld();
    db = await openInspector(w.dbFile);
    const t = tamperedCookies(w.anna.cookie);
    vars = { ...w.ids, annaTokenOnly: t.tokenOnly, annaTampered: t.tampered };
  }, 15 * 60_000);

  afterAll(async () => {
    await db?.close();
    await w?.stop();
  });

  it("has at least 200 cases, each with its own name", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(200);
    expect(new Set(CASES.map((c) => c.name)).size).toBe(CASES.length);
  });

  it.each(CASES)("$name", async (c) => {
    const before = await db.snapshot();
    const res = await send(w.base, toRequest(c));
    const context = `${c.method ?? "GET"} ${c.path} -> ${res.status} ${res.text.slice(0, 300)}`;
    expect(res.status, context).toBe(c.status);
    if (c.code !== null) expect(res.status, context).toBeLessThan(500);
    expect(res.text, context).not.toMatch(LEAK);
    if (c.code) {
      expect(res.headers["content-type"], context).toMatch(/^application\/json/);
      const body = JSON.parse(res.text) as { error?: { code?: unknown; message?: unknown } };
      expect(body.error?.code, context).toBe(c.code);
      expect(typeof body.error?.message, context).toBe("string");
    }
    expect(await db.snapshot(), `${c.name}: the database changed`).toEqual(before);
    // Whatever our API answered is in its OpenAPI document (endpoint, status, body, error
    // code). `code: null` cases are answered by the framework before our code runs.
    if (c.code !== null) {
      const contentType = res.headers["content-type"];
      const observed = { method: c.method ?? "GET", path: fill(c.path), ...res, contentType };
      expect(contractProblems(observed), context).toEqual([]);
    }
  });

  it("answers someone else's action and chat byte for byte like unknown ones", async () => {
    const unknown = "00000000-0000-0000-0000-000000000000";
    const pairs: [string, string, string][] = [
      ["POST", `/api/actions/${vars.borisAction}/confirm`, `/api/actions/${unknown}/confirm`],
      ["POST", `/api/actions/${vars.borisAction}/cancel`, `/api/actions/${unknown}/cancel`],
      ["GET", `/api/chats/${vars.borisChat}`, `/api/chats/${unknown}`],
    ];
    const shape = (r: Awaited<ReturnType<typeof send>>) => ({
      status: r.status,
      text: r.text,
      headers: Object.keys(r.headers)
        .filter((h) => h !== "date")
        .sort(),
    });
    for (const [method, foreign, missing] of pairs) {
      const headers = { cookie: w.anna.cookie };
      const a = await send(w.base, { method, path: foreign, headers });
      const b = await send(w.base, { method, path: missing, headers });
      expect(shape(a)).toEqual(shape(b));
    }
  });

  it("is healthy afterwards, and the open proposals are still open", async () => {
    const health = await fetch(`${w.base}/api/health`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { status: string }).status).toBe("ok");
    const anna = (await (await w.anna.fetch(`/api/chats/${vars.pendingChat}`)).json()) as {
      pendingAction: { id: string; status: string } | null;
    };
    expect(anna.pendingAction).toMatchObject({ id: vars.pendingAction, status: "pending" });
    const boris = (await (await w.boris.fetch(`/api/chats/${vars.borisChat}`)).json()) as {
      pendingAction: { id: string } | null;
    };
    expect(boris.pendingAction?.id).toBe(vars.borisAction);
    expect((await db.snapshot()).returns).toBe(0);
  });

  // Last: it changes state. The id is the whole request; a body naming other arguments is ignored.
  it("confirms exactly the stored arguments whatever the body says", async () => {
    const res = await send(w.base, {
      method: "POST",
      path: `/api/actions/${vars.pendingAction}/confirm`,
      headers: { cookie: w.anna.cookie, "content-type": "application/json" },
      body: JSON.stringify({
        arguments: { orderId: "4410", reason: "other", comment: "<script>alert(1)</script>" },
        refund: { amount: 999999, destination: "IBAN DE00 evil" },
      }),
    });
    expect(res.status).toBe(200);
    const path = `/api/actions/${vars.pendingAction}/confirm`;
    const contentType = res.headers["content-type"];
    expect(contractProblems({ method: "POST", path, ...res, contentType })).toEqual([]);
    const body = JSON.parse(res.text) as {
      result: {
        orderId: string;
        reason: string;
        comment: string | null;
        refund: { amount: number };
      };
    };
    expect(body.result).toMatchObject({ orderId: "7718", reason: "damaged", comment: null });
    expect(body.result.refund.amount).not.toBe(999999);
    const rows = await db.column("SELECT order_id FROM return_requests");
    expect(rows).toEqual(["7718"]);
  });
});
