/**
 * A provider that floods or poisons its answer, through the loopback OpenAI
 * server and the real route handlers, on SQLite and PostgreSQL: tool calls are bounded per
 * response and per turn, and so are a call's arguments and the turn's text; a call whose name or
 * id holds a control character is rejected and audited; no NUL is stored anywhere.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { getChatForUser } from "@/db/queries/chats";
import { messages, pendingActions } from "@/db/schema";
import { MODEL_OUTPUT_LIMITS } from "@/lib/chat/output-guard";
import { MAX_STORED_MESSAGE_CHARS, saveTurn } from "@/lib/chat/persist";
import { resetRateLimits } from "@/lib/http/rate-limit";
import { Customer } from "../helpers/chat";
import { userIdOf } from "../helpers/db";
import { actionsIn, auditFor } from "../helpers/inspect";
import { useLoopbackModel } from "../helpers/loopback-model";
import type { OpenAIServer, Script, ScriptedCall } from "../helpers/openai-server";
import { pendingActionPart } from "../helpers/stream";

let server: OpenAIServer;
let stopModel: () => Promise<void>;
let anna: Customer;

beforeAll(async () => {
  ({ server, stop: stopModel } = await useLoopbackModel());
  anna = await Customer.signIn("anna@example.com");
});
afterAll(async () => {
  await stopModel();
});
beforeEach(async () => {
  server.requests.length = 0;
  await resetRateLimits();
});

const status = (n: number): ScriptedCall[] =>
  Array.from({ length: n }, () => ({ name: "get_order_status", arguments: { orderId: "8041" } }));

async function turn(text: string, ...scripts: Script[]) {
  server.enqueue(...scripts);
  const chat = await anna.newChat();
  const result = await anna.say(chat, text);
  return { chat, ...result };
}

/** Every string stored for the chat that holds a NUL: messages, audit events and actions. */
async function storedNuls(chat: string): Promise<string[]> {
  const rows = await getDb().select().from(messages).where(eq(messages.chatId, chat));
  const found: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === "string" && v.includes("\u0000")) found.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) walk([k, x]);
  };
  walk([rows, await auditFor(chat), await actionsIn(chat)]);
  return found;
}

const storedMessageChars = async (chat: string) =>
  Math.max(
    ...(await getDb().select().from(messages).where(eq(messages.chatId, chat))).map(
      (r) => JSON.stringify(r.parts).length,
    ),
  );

describe("a provider that floods its answer", () => {
  it("3,000 tool calls in one response: 8 run, one event counts the rest, the turn stops", async () => {
    const t = await turn("Where is order 8041?", { type: "tool-calls", calls: status(3000) });
    expect(t.status).toBe(200);
    expect(t.errors).toEqual([]);
    const events = await auditFor(t.chat);
    const ran = events.filter((e) => e.status === "success");
    expect(ran).toHaveLength(MODEL_OUTPUT_LIMITS.callsPerStep);
    const over = events.filter((e) => e.errorCode === "too_many_tool_calls");
    expect(over).toHaveLength(1);
    expect(over[0]).toMatchObject({ tool: "get_order_status", status: "rejected" });
    expect(over[0]!.result).toMatchObject({ dropped: 3000 - MODEL_OUTPUT_LIMITS.callsPerStep });
    expect(events).toHaveLength(MODEL_OUTPUT_LIMITS.callsPerStep + 1);
    // The turn stopped after that response: the model was not asked again.
    expect(server.requests).toHaveLength(1);
    expect(await storedMessageChars(t.chat)).toBeLessThan(32_000);
  });

  it("a model that keeps calling: at most 16 calls per turn, then the turn stops", async () => {
    const t = await turn(
      "Where is order 8041?",
      { type: "tool-calls", calls: status(8) },
      { type: "tool-calls", calls: status(8) },
      { type: "tool-calls", calls: status(8) },
    );
    const events = await auditFor(t.chat);
    expect(events.filter((e) => e.status === "success")).toHaveLength(
      MODEL_OUTPUT_LIMITS.callsPerTurn,
    );
    expect(events.filter((e) => e.errorCode === "too_many_tool_calls")).toHaveLength(1);
    expect(server.requests).toHaveLength(3);
    // Once the turn's calls are used up, the model is told to answer in text.
    expect(server.requests[2]!.body.tool_choice).toBe("none");
  });

  it("arguments above the bound: rejected and audited, nothing runs", async () => {
    const big = { orderId: "8041", note: "x".repeat(MODEL_OUTPUT_LIMITS.argumentChars) };
    const t = await turn("Where is order 8041?", {
      type: "tool-calls",
      calls: [{ name: "get_order_status", arguments: big }],
    });
    const events = await auditFor(t.chat);
    expect(events.map((e) => [e.tool, e.status, e.errorCode])).toEqual([
      ["get_order_status", "rejected", "arguments_too_large"],
    ]);
    expect(JSON.stringify(events[0]!.arguments).length).toBeLessThan(200);
    // A response whose only call was refused ends the turn: the model is not asked again.
    expect(server.requests).toHaveLength(1);
  });

  it("a flood of text: the turn keeps at most 16,000 characters of it", async () => {
    const t = await turn("Hello", { type: "text", text: "blah ".repeat(40_000) });
    expect(t.text.length).toBeLessThanOrEqual(MODEL_OUTPUT_LIMITS.textChars);
    expect(await storedMessageChars(t.chat)).toBeLessThan(MODEL_OUTPUT_LIMITS.textChars + 2_000);
  });
});

describe("a provider that sends control characters", () => {
  it.each([
    [
      "NUL in the name",
      { name: "get_order_status\u0000", id: "call_nul_name" },
      "get_order_status\\u0000",
    ],
    [
      "ESC in the name",
      { name: "get_order\u001b[31m_status", id: "call_esc_name" },
      "get_order\\u001b[31m_status",
    ],
    ["NUL in the id", { name: "get_order_status", id: "call\u0000x" }, "get_order_status"],
    [
      "ESC in the id",
      { name: "get_order_status", id: "call\u001b]0;pwned\u0007" },
      "get_order_status",
    ],
  ])(
    "%s: rejected and audited with the characters escaped; nothing runs",
    async (_n, call, shown) => {
      const t = await turn("Where is order 8041?", {
        type: "tool-calls",
        calls: [{ ...call, arguments: { orderId: "8041" } }],
      });
      expect(t.errors).toEqual([]);
      const events = await auditFor(t.chat);
      expect(events.map((e) => [e.tool, e.status, e.errorCode])).toEqual([
        [shown, "rejected", "invalid_tool_call"],
      ]);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters is the point
      expect(events[0]!.toolCallId).not.toMatch(/[\u0000-\u001f]/);
      expect(await storedNuls(t.chat)).toEqual([]);
    },
  );

  it("NUL in the answer and in a write's arguments: stored without it, and the card confirms", async () => {
    const t = await turn("Please cancel order 3004, I ordered it by mistake", {
      type: "tool-calls",
      text: "Sure\u0000, here it is.",
      calls: [
        {
          name: "cancel_order",
          // `\u0000` inside the JSON text parses to a NUL in the comment.
          arguments:
            '{"orderId":"3004","reason":"ordered_by_mistake","comment":"by\\u0000 mistake"}',
        },
      ],
    });
    const card = pendingActionPart(t.message);
    expect(card?.data.status).toBe("pending");
    expect(await storedNuls(t.chat)).toEqual([]);
    const [action] = await getDb()
      .select()
      .from(pendingActions)
      .where(eq(pendingActions.id, card!.data.id));
    expect(JSON.stringify(action!.arguments)).toContain("by mistake");
    const res = await anna.confirm(card!.data.id);
    expect(res.status).toBe(200);
  });

  it("saving a turn: no NUL is kept, and a message above the stored bound is refused whole", async () => {
    const chatId = await anna.newChat();
    const chat = (await getChatForUser({
      id: chatId,
      userId: await userIdOf("anna@example.com"),
    }))!;
    const user = (text: string) => ({
      id: randomUUID(),
      role: "user" as const,
      parts: [{ type: "text" as const, text }],
    });
    const assistant = (text: string) => ({
      id: randomUUID(),
      role: "assistant" as const,
      parts: [{ type: "text" as const, text }],
    });
    const save = (text: string) =>
      saveTurn({
        chat,
        userMessage: user("Hello"),
        assistantMessage: assistant(text),
        model: "m",
        promptVersion: "p",
        usage: null,
      });
    expect(await save("Hi\u0000 there")).toBe(true);
    expect(await storedNuls(chatId)).toEqual([]);
    await expect(save("x".repeat(MAX_STORED_MESSAGE_CHARS))).rejects.toThrow(/stored bound/);
    const rows = await getDb().select().from(messages).where(eq(messages.chatId, chatId));
    expect(rows).toHaveLength(2);
  });
});
