/**
 * Hostile cases that need a misbehaving model or a second client, against the production server
 * (scripts/serve.mjs) with the loopback OpenAI server as the model:
 * - a model calling tools named like Object.prototype members (cases-model.ts): rejected and
 *   audited as unknown tools, and the chat page and GET /api/chats/{id} still answer 200;
 * - a second message while a turn is still streaming: 409 `turn_in_progress`, never a second
 *   turn over the first;
 * - sign-in guesses that rotate a made-up X-Forwarded-For: the server keys its address limiter
 *   by the socket, so they are still one client and get 429.
 */

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpCustomer } from "@/bench/lib/client";
import { ensureBuild, type Server, startServer } from "@/bench/lib/server";
import { runConsole } from "@/cli/chat/session";
import { DEMO_PASSWORD } from "@/db/seed-data";
import { createApiClient } from "@/lib/api-client";
import { type OpenAIServer, startOpenAIServer } from "../helpers/openai-server";
import { PROTOTYPE_TOOL_NAMES } from "./hostile/cases-model";
import { SIGN_IN } from "./hostile/types";
import { type Inspector, openInspector } from "./lib/db-snapshot";
import { send } from "./lib/raw-http";
import { DIST_DIR, serverDatabase } from "./lib/world";

let model: OpenAIServer;
let server: Server;
let dir: string;
let db: Inspector;
let anna: HttpCustomer;

beforeAll(async () => {
  ensureBuild(DIST_DIR);
  model = await startOpenAIServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-hostile-model-"));
  const database = await serverDatabase(dir);
  server = await startServer({
    distDir: DIST_DIR,
    dbPath: path.join(dir, "app.db"),
    env: {
      ...database.env,
      MODEL_PROVIDER: "openai",
      OPENAI_API_KEY: "test",
      OPENAI_BASE_URL: model.baseURL,
      AUTH_SIGN_IN_RATE_LIMIT_PER_MINUTE: "5",
    },
  });
  anna = await HttpCustomer.signIn(server.url, "anna@example.com");
  db = await openInspector(database.target);
}, 15 * 60_000);

afterAll(async () => {
  await db?.close();
  await server?.stop();
  await model?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("a model calling tools named like Object.prototype members", () => {
  it.each(PROTOTYPE_TOOL_NAMES)("%s: rejected, audited, and the chat still loads", async (name) => {
    const chat = await anna.newChat();
    model.enqueue(
      { type: "tool-calls", calls: [{ name, arguments: { orderId: "7718" } }] },
      { type: "text", text: "I can't do that." },
    );
    await anna.say(chat, "Do something odd with order 7718");
    const events = await db.rows(
      'select tool, status, error_code as "errorCode" from audit_events where chat_id = ?',
      [chat],
    );
    expect(events).toEqual([{ tool: name, status: "rejected", errorCode: "unknown_tool" }]);
    for (const p of [`/chat/${chat}`, `/api/chats/${chat}`]) {
      const res = await send(server.url, { path: p, headers: { cookie: anna.cookie } });
      expect(res.status, `${p}: ${res.text.slice(0, 200)}`).toBe(200);
    }
  });
});

describe("overlapping turns", () => {
  it("a second message while the first is still streaming gets 409 and no second turn", async () => {
    const chat = await anna.newChat();
    const start = model.requests.length;
    model.enqueue({
      type: "text",
      text: "A slow answer, word by word, to keep the turn open.",
      delayMs: 200,
    });
    const first = await anna.fetch(`/api/chats/${chat}/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "Where is order 8041?" }),
    });
    expect(first.status).toBe(200);
    const second = await anna.fetch(`/api/chats/${chat}/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "And 7718?" }),
    });
    expect(second.status).toBe(409);
    expect(((await second.json()) as { error: { code: string } }).error.code).toBe(
      "turn_in_progress",
    );
    await first.text();
    // One model call: the refused message never reached the model.
    expect(model.requests.length - start).toBe(1);
    const rows = await db.column("select role from messages where chat_id = ? order by seq", [
      chat,
    ]);
    expect(rows).toEqual(["user", "assistant"]);
  });
});

describe("a provider that floods or poisons its answer", () => {
  it("3,000 tool calls in one response: 8 run and are audited, one event counts the rest", async () => {
    const chat = await anna.newChat();
    const start = model.requests.length;
    model.enqueue({
      type: "tool-calls",
      calls: Array.from({ length: 3000 }, () => ({
        name: "get_order_status",
        arguments: { orderId: "8041" },
      })),
    });
    await anna.say(chat, "Where is order 8041?");
    const events = await db.rows<{ status: string; errorCode: string | null }>(
      'select status, error_code as "errorCode" from audit_events where chat_id = ? order by id',
      [chat],
    );
    expect(events.filter((e) => e.status === "success")).toHaveLength(8);
    expect(events.filter((e) => e.errorCode === "too_many_tool_calls")).toHaveLength(1);
    expect(events).toHaveLength(9);
    expect(model.requests.length - start).toBe(1);
    const sizes = await db.column<number>(
      "select length(cast(parts as text)) from messages where chat_id = ?",
      [chat],
    );
    expect(Math.max(...sizes.map(Number))).toBeLessThan(32_000);
  });

  it("NUL and escape sequences in the answer: no NUL is stored, and the terminal client prints no escape", async () => {
    const poisoned = "Order 8041\u0000 is \u001b[2J\u001b[31min transit\u001b]0;pwned\u0007.";
    model.enqueue({ type: "text", text: poisoned });
    const client = createApiClient({ baseUrl: server.url });
    const signedIn = await client.signIn("anna@example.com", DEMO_PASSWORD);
    expect(signedIn.ok).toBe(true);
    let printed = "";
    await runConsole({
      client,
      role: "customer",
      io: {
        write: (text) => {
          printed += text;
        },
        lines: (async function* () {
          yield "Where is order 8041?";
        })(),
      },
    });
    expect(printed).toContain("Order 8041 is in transit.");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters is the point
    expect(printed).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    const stored = await db.column<string>(
      "select cast(parts as text) from messages where role = 'assistant' and cast(parts as text) like ?",
      ["%in transit%"],
    );
    expect(stored.length).toBeGreaterThan(0);
    for (const text of stored) {
      expect(text).not.toContain("\\u0000");
      expect(text).not.toContain("\u0000");
    }
  });
});

describe("sign-in guesses with a rotating X-Forwarded-For", () => {
  it("are one client to the address limiter: 429 comes", async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 20 && !statuses.includes(429); i++) {
      const res = await send(server.url, {
        method: "POST",
        path: SIGN_IN,
        headers: {
          "content-type": "application/json",
          origin: server.url,
          "x-forwarded-for": `203.0.113.${i}`,
        },
        // A different account each time: this is about the address, not the per-account limit.
        body: JSON.stringify({ email: `guess-${i}@example.com`, password: "wrong-password" }),
      });
      statuses.push(res.status);
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
  });
});
