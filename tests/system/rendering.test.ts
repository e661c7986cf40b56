/**
 * Customer and model text is data, never markup: markup sent as a message, markup
 * in the model's answer, and a return comment the model puts into a proposal all come back in
 * the server-rendered HTML of the chat page and of the staff transcript as escaped text, never
 * as tags, script or links. The model is a loopback OpenAI-compatible server, so it can say
 * exactly what a hostile or confused model would. (tests/e2e/security.spec.ts checks the
 * browser side after streaming and hydration.)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpCustomer, pendingActionOf } from "@/bench/lib/client";
import { ensureBuild, type Server, startServer } from "@/bench/lib/server";
import { type OpenAIServer, startOpenAIServer } from "../helpers/openai-server";
import { send } from "./lib/raw-http";
import { DIST_DIR } from "./lib/world";

const HOSTILE_MESSAGE = [
  '<img src=x onerror="window.__xss=1">',
  "<script>window.__xss=2</script>",
  "</script><script>window.__xss=3</script>",
  "[click me](javascript:window.__xss=4)",
  '<a href="javascript:window.__xss=5">link</a>',
  "<iframe src=//evil.example></iframe>",
].join(" ");

const MODEL_ANSWER =
  'Sure! <img src=x onerror="window.__xss=7"> **Done**. [Open](javascript:window.__xss=8) ' +
  "<script>window.__xss=9</script>";

const HOSTILE_COMMENT = '<img src=x onerror="window.__xss=6"> arrived broken';

/** Tags, handlers and URLs that would run something if the text had become markup. */
const INJECTED = [
  /<img[^>]*onerror/i,
  /<script>window\.__xss/i,
  /<iframe[^>]*evil/i,
  /href="javascript:/i,
];

let model: OpenAIServer;
let server: Server;
let dir: string;
let anna: HttpCustomer;
let staff: HttpCustomer;
let messageChat: string;
let proposalChat: string;
let borisChat: string;
let comment: string | null | undefined;

async function html(p: string, cookie: string, status = 200): Promise<string> {
  const res = await send(server.url, { path: p, headers: { cookie } });
  expect(res.status, p).toBe(status);
  return res.text;
}

beforeAll(async () => {
  ensureBuild(DIST_DIR);
  model = await startOpenAIServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-desk-render-"));
  server = await startServer({
    distDir: DIST_DIR,
    dbPath: path.join(dir, "app.db"),
    env: { MODEL_PROVIDER: "openai", OPENAI_API_KEY: "test", OPENAI_BASE_URL: model.baseURL },
  });
  [anna, staff] = await Promise.all([
    HttpCustomer.signIn(server.url, "anna@example.com"),
    HttpCustomer.signIn(server.url, "staff@example.com"),
  ]);
  const boris = await HttpCustomer.signIn(server.url, "boris@example.com");
  borisChat = await boris.newChat();
  model.enqueue({ type: "text", text: "Order 4410 was delivered two days ago." });
  await boris.say(borisChat, "Where is order 4410?");

  messageChat = await anna.newChat();
  model.enqueue({ type: "text", text: MODEL_ANSWER });
  await anna.say(messageChat, HOSTILE_MESSAGE);

  proposalChat = await anna.newChat();
  model.enqueue({
    type: "tool-calls",
    calls: [
      {
        name: "create_return_request",
        arguments: { orderId: "7718", reason: "damaged", comment: HOSTILE_COMMENT },
      },
    ],
  });
  const turn = await anna.say(proposalChat, "Please return 7718, it arrived damaged.");
  comment = (pendingActionOf(turn) as { arguments: { comment?: string | null } } | null)?.arguments
    .comment;
}, 15 * 60_000);

afterAll(async () => {
  await server?.stop();
  await model?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("markup in customer and model text", () => {
  it("the proposal really carries the markup in its comment (the test is not vacuous)", () => {
    expect(comment).toContain('<img src=x onerror="window.__xss=6">');
  });

  it("the chat page shows the message and the answer as text, with no tag, script or link", async () => {
    const page = await html(`/chat/${messageChat}`, anna.cookie);
    for (const pattern of INJECTED) expect(page).not.toMatch(pattern);
    expect(page).toContain("&lt;img src=x onerror=&quot;window.__xss=1&quot;&gt;");
    expect(page).toContain("&lt;/script&gt;&lt;script&gt;window.__xss=3");
    // The model's answer is markdown: its formatting renders, its raw HTML is dropped and its
    // javascript: link loses the URL.
    expect(page).toContain("<strong>Done</strong>");
    expect(page).toMatch(/<a href="" [^>]*>Open</);
  });

  it("the confirm card shows the model's comment as text", async () => {
    const page = await html(`/chat/${proposalChat}`, anna.cookie);
    for (const pattern of INJECTED) expect(page).not.toMatch(pattern);
    expect(page).toContain("&lt;img src=x onerror=&quot;window.__xss=6&quot;&gt;");
  });

  it("the staff transcript shows both as text", async () => {
    for (const chat of [messageChat, proposalChat]) {
      const page = await html(`/audit/chats/${chat}`, staff.cookie);
      for (const pattern of INJECTED) expect(page).not.toMatch(pattern);
      expect(page).toContain("&lt;img src=x onerror=");
    }
  });

  it("another customer's chat page shows none of that chat", async () => {
    const page = await html(`/chat/${borisChat}`, anna.cookie, 404);
    expect(page).toContain("does not exist or is not yours");
    expect(page).not.toContain("4410");
    expect(page).not.toContain("Boris");
  });
});
