/**
 * What the executor writes onto the tracing span of a tool call (the AI SDK's `ai.toolCall`, the
 * active span while a tool runs): the tool, what our side made of the call, the proposal's id or
 * the refusal's code, and nothing of the arguments. The OTLP suite (telemetry.test.ts) shows the
 * same through a whole turn; this one calls the executor directly with an in-memory exporter, so
 * it needs no process of its own and runs with the other in-process suites.
 */
import { context, propagation, type Span, trace } from "@opentelemetry/api";
import {
  InMemorySpanExporter,
  NodeTracerProvider,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeToolCall } from "@/lib/actions/executor";
import { type Core, newChat, setupCore } from "./fixtures";

const exporter = new InMemorySpanExporter();
let provider: NodeTracerProvider;
let core: Core;
let chat: string;

beforeAll(async () => {
  core = await setupCore();
  chat = await newChat(core.db, core.anna);
  provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register();
  // The executor annotates only when tracing is on (the exporter's endpoint set); nothing is
  // sent there, the provider above records in memory.
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = "http://127.0.0.1:9";
});

afterAll(async () => {
  // The tracer, its context manager and propagator are process-wide: the next suite in this
  // process must find none, as it would in a process of its own.
  trace.disable();
  context.disable();
  propagation.disable();
  await provider.shutdown();
});

/** One tool call inside a span standing for the AI SDK's; its attributes when it ended. */
async function spanOf(name: string, args: unknown) {
  exporter.reset();
  await trace.getTracer("test").startActiveSpan("ai.toolCall", async (span: Span) => {
    try {
      await executeToolCall(name, args, {
        userId: core.anna,
        chatId: chat,
        toolCallId: `call_${name}`,
      });
    } finally {
      span.end();
    }
  });
  const spans = exporter.getFinishedSpans();
  expect(spans.map((s) => s.name)).toEqual(["ai.toolCall"]);
  return spans[0]!.attributes;
}

describe("the tool call's span", () => {
  it("a lookup: the tool and success, neither an action nor an error code", async () => {
    expect(await spanOf("get_order_status", { orderId: "9307" })).toEqual({
      "returns_desk.tool.name": "get_order_status",
      "returns_desk.tool.status": "success",
    });
  });

  it("a proposal: confirmation_required and the stored action's id", async () => {
    const attributes = await spanOf("create_return_request", {
      orderId: "7718",
      reason: "damaged",
    });
    expect(attributes).toEqual({
      "returns_desk.tool.name": "create_return_request",
      "returns_desk.tool.status": "confirmation_required",
      "returns_desk.action.id": expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  it("a refusal: its status and code, no action; the arguments nowhere", async () => {
    const attributes = await spanOf("cancel_order", { orderId: "nope-123", reason: "x" });
    expect(attributes).toEqual({
      "returns_desk.tool.name": "cancel_order",
      "returns_desk.tool.status": "rejected",
      "returns_desk.tool.error_code": "invalid_arguments",
    });
    expect(JSON.stringify(attributes)).not.toContain("nope-123");
  });

  it("an unknown tool: the name the model used, cut to 100 characters, rejected", async () => {
    const long = `run_${"x".repeat(200)}`;
    expect(await spanOf(long, {})).toEqual({
      "returns_desk.tool.name": long.slice(0, 100),
      "returns_desk.tool.status": "rejected",
      "returns_desk.tool.error_code": "unknown_tool",
    });
  });
});
