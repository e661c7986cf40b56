/**
 * OpenTelemetry traces through the real route handlers: with OTEL_EXPORTER_OTLP_ENDPOINT pointing
 * at a loopback OTLP/HTTP receiver, a proposal and a confirm arrive as spans (the route, the turn,
 * each model call, each tool call, the confirm transaction), one trace per turn, with ids, statuses
 * and token counts, and no attribute carries the customer's message or a delivery note.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flushTracing, startTracing } from "@/lib/telemetry/sdk";
import { Customer } from "../helpers/chat";
import { useTestDatabase } from "../helpers/db";
import { pendingActionPart } from "../helpers/stream";

type AnyValue = {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValue[] };
};
type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: { key: string; value: AnyValue }[];
};
type Export = { resourceSpans?: { scopeSpans?: { spans?: OtlpSpan[] }[] }[] };

const received: OtlpSpan[] = [];
let receiver: http.Server;

const value = (v: AnyValue): unknown =>
  v.stringValue ??
  (v.intValue !== undefined ? Number(v.intValue) : undefined) ??
  v.doubleValue ??
  v.boolValue ??
  v.arrayValue?.values?.map(value);
const attrs = (s: OtlpSpan) =>
  Object.fromEntries((s.attributes ?? []).map((a) => [a.key, value(a.value)]));

const SECRET = "zebra-quartz";
const NOTE = "Leave at the door";

beforeAll(async () => {
  receiver = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (req.url === "/v1/traces") {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Export;
      for (const r of body.resourceSpans ?? [])
        for (const s of r.scopeSpans ?? []) received.push(...(s.spans ?? []));
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end("{}");
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const { port } = receiver.address() as AddressInfo;
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${port}`;
  process.env.OTEL_EXPORTER_OTLP_PROTOCOL = "http/json";
  startTracing();
  await useTestDatabase();
});

afterAll(async () => {
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  await new Promise((r) => receiver.close(r));
});

describe("traces over OTLP", () => {
  it("a proposal and a confirm arrive as one trace per turn, without customer text", async () => {
    const anna = await Customer.signIn("anna@example.com");
    // A lookup whose result carries a delivery note, then a return proposal, then Confirm.
    const lookup = await anna.newChat();
    await anna.say(lookup, `Where is order 9307? My code word is ${SECRET}.`);
    const chat = await anna.newChat();
    const said = `Create a return request for order 7718. The glass carafe is cracked, ${SECRET}.`;
    const turn = await anna.say(chat, said);
    const card = pendingActionPart(turn.message);
    expect(card).toBeDefined();
    expect((await anna.confirm(card!.data.id)).status).toBe(200);
    await flushTracing();

    const named = (name: string) => received.filter((s) => s.name === name);
    const turns = named("chat.turn");
    expect(turns).toHaveLength(2);
    const proposal = turns.find((s) => attrs(s)["returns_desk.chat.id"] === chat)!;
    expect(attrs(proposal)).toMatchObject({
      "returns_desk.turn.outcome": "proposed",
      "returns_desk.action.id": card!.data.id,
      "gen_ai.usage.input_tokens": expect.any(Number),
    });
    // The route span is the root; the turn, the model calls and the tool calls share its trace.
    const trace = received.filter((s) => s.traceId === proposal.traceId);
    const route = trace.find((s) => s.name.startsWith("handler POST /api/chats/[id]/messages"))!;
    expect(route.parentSpanId ?? "").toBe("");
    expect(proposal.parentSpanId).toBe(route.spanId);
    const names = trace.map((s) => s.name);
    expect(names).toContain("ai.streamText");
    expect(names).toContain("ai.streamText.doStream");
    const tool = trace.find((s) => s.name === "ai.toolCall")!;
    expect(attrs(tool)).toMatchObject({
      "ai.toolCall.name": "create_return_request",
      "returns_desk.tool.name": "create_return_request",
      "returns_desk.tool.status": "confirmation_required",
      "returns_desk.action.id": card!.data.id,
    });
    expect(attrs(tool)).not.toHaveProperty("returns_desk.tool.error_code");
    // The lookup's tool span: a success, with neither an action nor an error code.
    const lookupTurn = turns.find((s) => attrs(s)["returns_desk.chat.id"] === lookup)!;
    const lookupTool = received.find(
      (s) => s.traceId === lookupTurn.traceId && s.name === "ai.toolCall",
    )!;
    expect(attrs(lookupTool)).toMatchObject({
      "returns_desk.tool.name": "get_order_status",
      "returns_desk.tool.status": "success",
    });
    expect(attrs(lookupTool)).not.toHaveProperty("returns_desk.tool.error_code");
    expect(attrs(lookupTool)).not.toHaveProperty("returns_desk.action.id");
    const model = trace.find((s) => s.name === "ai.streamText.doStream")!;
    expect(attrs(model)["ai.usage.inputTokens"]).toEqual(expect.any(Number));

    // The confirm: its own trace, the route then the transaction.
    const confirm = named("action.confirm")[0]!;
    expect(attrs(confirm)).toMatchObject({
      "returns_desk.action.id": card!.data.id,
      "returns_desk.action.status": "executed",
    });
    expect(confirm.traceId).not.toBe(proposal.traceId);
    expect(
      received.some(
        (s) =>
          s.spanId === confirm.parentSpanId &&
          s.name.startsWith("handler POST /api/actions/[id]/confirm"),
      ),
    ).toBe(true);

    // Nothing the customer wrote, and no delivery note, in any attribute of any span.
    const everything = JSON.stringify(received.map(attrs));
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(NOTE);
    expect(everything).not.toContain("glass carafe");
  });

  it("a refused tool call carries its status and error code, and no action", async () => {
    const anna = await Customer.signIn("anna@example.com");
    const chat = await anna.newChat();
    await anna.say(chat, "Where is order 1111?");
    await flushTracing();
    const turn = received.find(
      (s) => s.name === "chat.turn" && attrs(s)["returns_desk.chat.id"] === chat,
    )!;
    const tool = received.find((s) => s.traceId === turn.traceId && s.name === "ai.toolCall")!;
    expect(attrs(tool)).toMatchObject({
      "returns_desk.tool.name": "get_order_status",
      "returns_desk.tool.status": "business_error",
      "returns_desk.tool.error_code": "order_not_found",
    });
    expect(attrs(tool)).not.toHaveProperty("returns_desk.action.id");
  });
});
