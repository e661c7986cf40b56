/**
 * Every state change is a POST behind the origin check. The hostile suite proves it
 * for today's endpoints with hand-written cases; this test guards the next route someone adds.
 * It imports every API route module, takes what the module REALLY exports (however it was
 * written: `export const POST = handler(...)`, `export const { PUT, PATCH, DELETE } =
 * notAllowed(...)`, a function declaration, a re-export) and calls each method in-process
 * against a real database holding a chat with a pending action:
 * - a module exports only HTTP methods and Next's route segment options (a typo such as
 *   `Delete` would silently be no route at all);
 * - POST from another site's page is refused with 403 `forbidden_origin` (what handler() does
 *   first), unless the route refuses POST altogether (405, or the unknown-endpoint 404);
 * - PUT, PATCH and DELETE are refusals: 405 `method_not_allowed` or 404 `not_found`;
 * - GET and HEAD, by the owner and by staff, answer without changing a single row.
 * And in every case the database is byte-for-byte what it was before the call.
 */
import fs from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Customer } from "../helpers/chat";
import { useTestDatabase } from "../helpers/db";
import { BASE, request, signIn } from "../helpers/http";
import { pendingActionPart } from "../helpers/stream";
import { openReadOnly } from "./lib/db-snapshot";

const API = path.resolve(import.meta.dirname, "../../app/api");

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
type Method = (typeof METHODS)[number];
/** Next.js route segment options a route file may export besides its methods. */
const SEGMENT_OPTIONS = [
  "dynamic",
  "dynamicParams",
  "revalidate",
  "fetchCache",
  "runtime",
  "preferredRegion",
  "maxDuration",
];
const CROSS_SITE = { origin: "https://evil.example", "sec-fetch-site": "cross-site" };

type RouteFn = (req: Request, ctx: { params: Promise<unknown> }) => Promise<Response> | Response;
const AUTH_ROUTE = path.join(API, "auth/[...all]/route.ts");
const EMBED_SESSION_ROUTE = path.join(API, "embed/session/route.ts");

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? routeFiles(p) : e.name === "route.ts" ? [p] : [];
  });
}

/** Every row of every table, in a stable order: "nothing changed" means exactly that. */
/**
 * The limiters' own bookkeeping (rate_limit: better-auth's per-address sign-in counter;
 * rate_windows: ours) is left out: counting every attempt, refused or not, is their job, and they count
 * in the database so that several instances share one limit.
 */
const LIMITER_TABLES = new Set(["rate_limit", "rate_windows"]);

function contents(db: Database.Database): Record<string, string> {
  const tables = (
    db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .pluck()
      .all() as string[]
  ).filter((t) => !LIMITER_TABLES.has(t));
  return Object.fromEntries(
    tables.map((t) => [
      t,
      JSON.stringify(db.prepare(`SELECT * FROM "${t}" ORDER BY rowid`).raw().all()),
    ]),
  );
}

/** The contract's error code of an answer, if it is a JSON error. */
async function errorCode(res: Response): Promise<string | undefined> {
  if (!res.headers.get("content-type")?.includes("json")) {
    await res.body?.cancel();
    return undefined;
  }
  return ((await res.json()) as { error?: { code?: string } }).error?.code;
}

let readOnly: Database.Database;
let anna: Customer;
let staffCookie: string;
let chatId: string;
let actionId: string;
/** A return of the demo store's (staff receive it) and an effect, if the world has one yet. */
let requestId: string;
let effectId: string;

/**
 * The URL and params of a route file, with real ids: a chat of Anna's and her pending action.
 * A new dynamic segment needs a line here; the test says so rather than guessing.
 */
function target(file: string): { url: string; params: Record<string, unknown> } {
  const segments = path.relative(API, path.dirname(file)).split(path.sep);
  const params: Record<string, unknown> = {};
  const url = segments.map((s, i) => {
    if (s === "[id]") {
      // An alert: none exists in this world; its POST is refused before the id matters.
      const id = {
        actions: actionId,
        chats: chatId,
        orders: "7718",
        effects: effectId,
        alerts: "no-such-alert",
      }[segments[i - 1] ?? ""];
      if (!id) throw new Error(`post-only.test.ts: which id fits ${file}? Add it to target().`);
      params.id = id;
      return id;
    }
    if (s === "[...rest]") {
      params.rest = ["no-such-endpoint"];
      return "no-such-endpoint";
    }
    if (s === "[...all]") {
      params.all = ["sign-in", "email"];
      return "sign-in/email";
    }
    if (s === "[requestId]") {
      params.requestId = requestId;
      return requestId;
    }
    if (s.startsWith("[")) throw new Error(`post-only.test.ts: add params for ${s} in ${file}.`);
    return s;
  });
  return { url: `/api/${url.join("/")}`, params };
}

/** A body each POST could act on (the message is a valid one; the credentials are Anna's). */
const BODY = { text: "Where is order 8041?", email: "anna@example.com", password: "returns-demo" };

beforeAll(async () => {
  const { file } = await useTestDatabase();
  readOnly = openReadOnly(file);
  anna = await Customer.signIn("anna@example.com");
  staffCookie = await signIn("staff@example.com");
  chatId = await anna.newChat();
  const turn = await anna.say(
    chatId,
    "Create a return request for order 7718. The item arrived damaged.",
  );
  const proposal = pendingActionPart(turn.message);
  if (!proposal) throw new Error("the world needs a pending action");
  actionId = proposal.data.id;
  const one = (sql: string) => (readOnly.prepare(sql).get() as { id: string } | undefined)?.id;
  requestId = one("SELECT id FROM return_requests ORDER BY rowid LIMIT 1") ?? "RT-none";
  // No confirm has run, so there is usually no effect: an unknown id still shows that a route
  // changes nothing on GET and refuses a cross-site POST.
  effectId = one("SELECT id FROM effects ORDER BY rowid LIMIT 1") ?? "no-such-effect";
});

afterAll(() => readOnly?.close());

describe("what every API route really exports", () => {
  const files = routeFiles(API);

  it("finds the API routes", () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
  });

  it.each(files.map((f) => [path.relative(API, f), f]))("%s", async (_, file) => {
    const mod = (await import(file)) as Record<string, unknown>;
    const names = Object.keys(mod);
    expect(
      names.filter(
        (n) => !(METHODS as readonly string[]).includes(n) && !SEGMENT_OPTIONS.includes(n),
      ),
      "exports that are neither an HTTP method nor a route segment option",
    ).toEqual([]);
    const { url, params } = target(file);

    for (const method of names.filter((n): n is Method =>
      (METHODS as readonly string[]).includes(n),
    )) {
      const fn = mod[method];
      expect(typeof fn, `${method} in ${file}`).toBe("function");
      const route = async (req: Request, ctx: { params: Promise<unknown> }) =>
        (fn as RouteFn)(req, ctx);
      // better-auth answers GET on its own paths (the session), not on sign-in.
      const path = file === AUTH_ROUTE && method !== "POST" ? "/api/auth/get-session" : url;
      const run = (headers: Record<string, string>, cookie: string) =>
        // Straight to the handler (not call(), which also checks the OpenAPI document): this test
        // is about what a route does, including better-auth's undocumented session GET.
        route(
          request(path, {
            method,
            cookie,
            headers: { host: new URL(BASE).host, ...headers },
            ...(method === "GET" || method === "HEAD" ? {} : { body: BODY }),
          }),
          { params: Promise.resolve(params) },
        );
      const before = contents(readOnly);

      if (method === "GET" || method === "HEAD" || method === "OPTIONS") {
        // Reads, by the chat's owner and by staff: whatever they answer, nothing changes.
        for (const cookie of [anna.cookie, staffCookie]) {
          const res = await run({}, cookie);
          await res.body?.cancel();
          expect(contents(readOnly), `${method} ${url} changed the database`).toEqual(before);
        }
        continue;
      }

      // POST is tried from another site's page first; PUT, PATCH, DELETE from our own.
      const res = await run(method === "POST" ? CROSS_SITE : { origin: BASE }, anna.cookie);
      const code = await errorCode(res);
      const refused =
        (res.status === 405 && code === "method_not_allowed") ||
        (res.status === 404 && code === "not_found");
      if (method === "POST" && !refused) {
        // A POST that does something must be behind the origin check: handler()'s, or for
        // sign-in and sign-out better-auth's own, which names its refusal differently.
        const refusal = file === AUTH_ROUTE ? "invalid_origin" : "forbidden_origin";
        expect([res.status, code], `cross-site POST ${url}`).toEqual([403, refusal]);
      } else if (method === "DELETE" && file === EMBED_SESSION_ROUTE) {
        // The one documented DELETE (docs/api.md): the embedded chat's sign-out, from our own
        // origin. It ends the session the cookie names (that is its write), so the
        // database-unchanged check of the refusals does not apply to it.
        expect(res.status, `${method} ${url}`).toBe(200);
        continue;
      } else {
        expect(refused, `${method} ${url} answered ${res.status} ${code}`).toBe(true);
      }
      expect(contents(readOnly), `${method} ${url} changed the database`).toEqual(before);
    }
  });
});
