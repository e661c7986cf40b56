/**
 * Every model call is stored with its turn (ids and numbers, never the customer's text), and the
 * daily counters the staff metrics page reads agree with what happened: turns, chats, tools,
 * proposals and their decisions, policy refusals, failed turns. Real route handlers, real SQLite,
 * the offline model and the loopback OpenAI server.
 */

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { dayOf, listModelCallsForChat } from "@/db/queries/metrics";
import { messages, metricsDaily } from "@/db/schema";
import { summarizeConversation } from "@/lib/ai/summary";
import { metricsReport } from "@/lib/metrics/report";
import { sqliteClient } from "@/tests/helpers/db";
import { Customer } from "../helpers/chat";
import { useTestDatabase } from "../helpers/db";
import { useLoopbackModel } from "../helpers/loopback-model";
import type { OpenAIServer } from "../helpers/openai-server";
import { pendingActionPart } from "../helpers/stream";

const today = () => ({ fromDay: dayOf(new Date()), toDay: dayOf(new Date()) + 1 });

describe("model calls with the offline model", () => {
  let anna: Customer;
  beforeAll(async () => {
    await useTestDatabase();
    anna = await Customer.signIn("anna@example.com");
  });

  it("stores one row per turn, pointing at its assistant message, without the customer's text", async () => {
    const chat = await anna.newChat();
    const said = "Where is order 8041? My secret phrase is zebra-quartz.";
    await anna.say(chat, said);
    const [row, ...rest] = await listModelCallsForChat({ chatId: chat });
    expect(rest).toEqual([]);
    const assistant = (await getDb().select().from(messages).where(eq(messages.chatId, chat))).find(
      (m) => m.role === "assistant",
    );
    expect(row).toMatchObject({
      kind: "turn",
      provider: "offline",
      model: "returns-desk-offline-1",
      promptVersion: "support-v2",
      messageId: assistant!.id,
      finishReason: "stop",
      steps: 2,
      toolCalls: ["get_order_status"],
      error: null,
    });
    expect(row!.responseId).toMatch(/^resp_/);
    expect(row!.inputTokens).toBeGreaterThan(0);
    expect(row!.outputTokens).toBeGreaterThan(0);
    expect(row!.ttftMs).not.toBeNull();
    expect(row!.ttftMs!).toBeLessThanOrEqual(row!.latencyMs);
    // The tool's arguments and its answer, as JSON: the drift corridor's payload size.
    expect(row!.payloadBytes).toBeGreaterThan(JSON.stringify({ orderId: "" }).length);
    expect(JSON.stringify(row)).not.toContain("zebra-quartz");
  });

  it("counts turns, chats, tools, proposals, decisions and policy refusals for the page", async () => {
    const before = await metricsReport(today());
    const chat = await anna.newChat();
    await anna.say(chat, "Hello!");
    const card = pendingActionPart(
      (await anna.say(chat, "Create a return request for order 7718. The item arrived damaged."))
        .message,
    );
    expect((await anna.confirm(card!.data.id)).status).toBe(200);
    // 4410 was delivered long ago: the policy refuses, no card.
    const late = await anna.newChat();
    await anna.say(late, "Create a return request for order 4410. The item arrived damaged.");

    const after = await metricsReport(today());
    expect(after.turns - before.turns).toBe(3);
    expect(after.chats - before.chats).toBe(2);
    expect(after.proposals - before.proposals).toBe(1);
    expect(after.decisions.confirmed - before.decisions.confirmed).toBe(1);
    expect(after.policyRefusals.count - before.policyRefusals.count).toBe(1);
    expect(after.policyRefusals.writeCalls - before.policyRefusals.writeCalls).toBe(2);
    expect(after.confirmRate).not.toBeNull();
    expect(after.latencyMs).not.toBeNull();
    expect(after.ttftMs).not.toBeNull();
    expect(after.toolMix.map((t) => t.tool)).toContain("create_return_request");
    expect(after.series.at(-1)!.turns).toBe(after.turns);
    expect(after.models).toEqual([
      { model: "offline/returns-desk-offline-1 support-v2", turns: after.turns },
    ]);
  });

  it("a turn that calls one tool twice counts both calls (one upsert per turn sums equal counters)", async () => {
    const toolCount = async () =>
      (await getDb().select().from(metricsDaily))
        .filter((r) => r.name === "turn.tool" && r.key === "get_order_status")
        .reduce((s, r) => s + r.n, 0);
    const before = await toolCount();
    const chat = await anna.newChat();
    await anna.say(chat, "Where are my orders 8041 and 7718?");
    const [row] = await listModelCallsForChat({ chatId: chat });
    expect(row!.toolCalls).toEqual(["get_order_status", "get_order_status"]);
    expect((await toolCount()) - before).toBe(2);
  });

  it("the daily counters match the audit trail they summarize", async () => {
    const rows = await getDb().select().from(metricsDaily);
    const audit = sqliteClient()
      .prepare("select status, tool, count(*) n from audit_events group by 1, 2")
      .all() as { status: string; tool: string; n: number }[];
    for (const a of audit) {
      const counted = rows
        .filter((r) => r.name === `audit.${a.status}` && r.key === a.tool)
        .reduce((s, r) => s + r.n, 0);
      expect(counted, `${a.tool}:${a.status}`).toBe(a.n);
    }
  });
});

describe("model calls with an OpenAI-compatible provider", () => {
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

  it("keeps the provider's response id and token counts", async () => {
    server.enqueue(
      {
        type: "tool-calls",
        calls: [{ name: "get_order_status", arguments: { orderId: "8041" } }],
        usage: { prompt_tokens: 100, completion_tokens: 10 },
      },
      {
        type: "text",
        text: "Order 8041 is in transit.",
        usage: { prompt_tokens: 150, completion_tokens: 8 },
      },
    );
    const chat = await anna.newChat();
    await anna.say(chat, "Where is order 8041?");
    const [row] = await listModelCallsForChat({ chatId: chat });
    expect(row).toMatchObject({
      provider: "openai",
      model: "loopback-1",
      inputTokens: 250,
      outputTokens: 18,
      steps: 2,
      finishReason: "stop",
      toolCalls: ["get_order_status"],
    });
    expect(row!.responseId).toMatch(/^chatcmpl-/);
  });

  it("records a failed turn with its kind, and no message", async () => {
    const before = (await metricsReport(today())).turnErrors.find(
      (e) => e.kind === "model_error",
    )!.count;
    server.enqueue({ type: "error", status: 500 });
    const chat = await anna.newChat();
    await anna.say(chat, "Where is order 8041?");
    const [row] = await listModelCallsForChat({ chatId: chat });
    expect(row).toMatchObject({ kind: "turn", error: "model_error", messageId: null });
    const after = (await metricsReport(today())).turnErrors.find(
      (e) => e.kind === "model_error",
    )!.count;
    expect(after - before).toBe(1);
  });

  it("stores a summary call with the summary prompt's version", async () => {
    server.enqueue({ type: "text", text: "- Orders: 8041" });
    const chat = await anna.newChat();
    await summarizeConversation({
      messages: [{ role: "user", parts: [{ type: "text", text: "Where is 8041?" }] }],
      provider: "openai",
      chat: { chatId: chat, userId: "anyone" },
    });
    const [row] = await listModelCallsForChat({ chatId: chat });
    expect(row).toMatchObject({
      kind: "summary",
      promptVersion: "summary-v1",
      model: "loopback-1",
    });
    expect(row!.responseId).toMatch(/^chatcmpl-/);
  });
});
