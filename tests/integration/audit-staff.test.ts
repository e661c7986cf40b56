/**
 * The staff side of a real conversation: chats, proposals and decisions made through the real
 * chat and action routes (offline model), then read back as staff: the audit list, the
 * transcript API, the action timeline and triage (rules offline; structured output against a
 * loopback OpenAI-compatible server).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listAudit } from "@/app/api/audit/route";
import { GET as transcriptRoute } from "@/app/api/staff/chats/[id]/route";
import { POST as triageRoute } from "@/app/api/staff/chats/[id]/triage/route";
import { getDb } from "@/db";
import { chats } from "@/db/schema";
import { loadActionLife } from "@/lib/audit/timeline";
import { resetEnv } from "@/lib/env";
import { Customer } from "../helpers/chat";
import { useTestDatabase } from "../helpers/db";
import { call, signIn } from "../helpers/http";
import { pendingActionPart } from "../helpers/stream";

describe("staff read a real conversation", () => {
  let anna: Customer;
  let staff: string;
  let returnChat: string;
  let statusChat: string;
  let confirmedAction: string;
  let cancelledAction: string;

  beforeAll(async () => {
    await useTestDatabase();
    anna = await Customer.signIn("anna@example.com");
    staff = await signIn("staff@example.com");
    statusChat = await anna.newChat();
    await anna.say(statusChat, "Where is order 8041?");
    returnChat = await anna.newChat();
    const first = await anna.say(
      returnChat,
      "Create a return request for order 7718. The item arrived damaged.",
    );
    cancelledAction = pendingActionPart(first.message)!.id!;
    expect((await anna.cancel(cancelledAction)).status).toBe(200);
    const second = await anna.say(
      returnChat,
      "Create a return request for order 7718. The item arrived damaged.",
    );
    confirmedAction = pendingActionPart(second.message)!.id!;
    expect((await anna.confirm(confirmedAction)).status).toBe(200);
  });

  const transcript = (id: string, cookie = staff) =>
    call(transcriptRoute, `/api/staff/chats/${id}`, { id }, { cookie });
  const triage = (id: string, cookie = staff) =>
    call(triageRoute, `/api/staff/chats/${id}/triage`, { id }, { cookie, method: "POST" });

  it("customers and anonymous visitors cannot read transcripts or run triage", async () => {
    for (const res of [await transcript(returnChat, ""), await triage(returnChat, "")]) {
      expect(res.status).toBe(401);
      expect((await res.json()).error.code).toBe("unauthenticated");
    }
    // Not even the chat's own customer: this is the staff view, with staff-only data.
    for (const res of [
      await transcript(returnChat, anna.cookie),
      await triage(returnChat, anna.cookie),
    ]) {
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe("forbidden");
    }
    expect((await getDb().select().from(chats)).every((c) => c.triage === null)).toBe(true);
  });

  it("the audit lists the conversation's tool calls and decisions, newest first", async () => {
    const res = await call(listAudit, `/api/audit?chatId=${returnChat}`, {}, { cookie: staff });
    const { events } = await res.json();
    expect(events.map((e: { status: string }) => e.status)).toEqual([
      "success",
      "confirmation_required",
      "cancelled",
      "confirmation_required",
    ]);
    expect(events[0]).toMatchObject({
      tool: "create_return_request",
      access: "write",
      actionId: confirmedAction,
    });
  });

  it("staff read any chat's transcript with its actions", async () => {
    const res = await transcript(returnChat);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.customer).toMatchObject({ email: "anna@example.com" });
    const texts = body.messages.flatMap((m: { items: { kind: string; text?: string }[] }) =>
      m.items.filter((i) => i.kind === "text").map((i) => i.text),
    );
    expect(texts[0]).toMatch(/order 7718/);
    const kinds = body.messages.flatMap((m: { items: { kind: string }[] }) =>
      m.items.map((i) => i.kind),
    );
    expect(kinds).toEqual(expect.arrayContaining(["text", "proposal", "outcome"]));
    expect(body.actions.map((a: { id: string; status: string }) => [a.id, a.status])).toEqual([
      [cancelledAction, "cancelled"],
      [confirmedAction, "executed"],
    ]);
    expect((await transcript("no-such-chat")).status).toBe(404);
  });

  it("an action's timeline shows each step with its time and who decided", async () => {
    const done = (await loadActionLife({ actionId: confirmedAction }))!;
    expect(done.steps.map((s) => [s.status, s.actor.kind])).toEqual([
      ["confirmation_required", "assistant"],
      ["success", "customer"],
    ]);
    const decider = done.steps[1]!.actor;
    expect(decider.kind === "customer" && decider.person?.email).toBe("anna@example.com");
    expect(done.steps[1]!.at.getTime()).toBeGreaterThanOrEqual(done.steps[0]!.at.getTime());
    const cancelled = (await loadActionLife({ actionId: cancelledAction }))!;
    expect(cancelled.steps.map((s) => s.status)).toEqual(["confirmation_required", "cancelled"]);
    expect(await loadActionLife({ actionId: "nope" })).toBeNull();
  });

  it("a new chat supersedes a pending proposal: the system decided", async () => {
    const chat = await anna.newChat();
    const turn = await anna.say(chat, "Create a return request for order 9307. It is defective.");
    const action = pendingActionPart(turn.message);
    // 9307 is returnable in the demo store; if the policy changes, this test says so.
    expect(action).toBeDefined();
    await anna.newChat();
    const life = (await loadActionLife({ actionId: action!.id! }))!;
    expect(life.steps.map((s) => [s.status, s.actor.kind])).toEqual([
      ["confirmation_required", "assistant"],
      ["superseded", "system"],
    ]);
  });

  it("offline triage is computed from the transcript and stored on the chat", async () => {
    const res = await triage(returnChat);
    expect(res.status).toBe(200);
    const { triage: stored } = await res.json();
    expect(stored).toMatchObject({
      method: "rules",
      model: { provider: "offline" },
      triage: { category: "return_request", sentiment: "negative" },
    });
    expect(stored.triage.summary).toMatch(/7718/);
    expect(stored.triage.summary).toMatch(/created/);
    expect(stored.triage.nextStep).toMatch(/refund/i);
    // Stored, and shown by the transcript API.
    expect((await (await transcript(returnChat)).json()).triage).toEqual(stored);
    const again = await (await triage(returnChat)).json();
    expect(again.triage.triage).toEqual(stored.triage);
    const status = await (await triage(statusChat)).json();
    expect(status.triage.triage).toMatchObject({ category: "order_status", urgency: "low" });
    expect((await triage("no-such-chat")).status).toBe(404);
  });

  describe("with the openai provider", () => {
    let server: http.Server;
    const requests: { body: Record<string, unknown> }[] = [];
    let reply: string;

    beforeAll(async () => {
      server = http.createServer((req, res) => {
        let raw = "";
        req.on("data", (c) => {
          raw += c;
        });
        req.on("end", () => {
          requests.push({ body: JSON.parse(raw) });
          res.writeHead(200, { "content-type": "application/json" });
          res.end(
            JSON.stringify({
              id: "chatcmpl-1",
              object: "chat.completion",
              created: 1,
              model: "test-model",
              choices: [
                { index: 0, message: { role: "assistant", content: reply }, finish_reason: "stop" },
              ],
              usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
            }),
          );
        });
      });
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      process.env.MODEL_PROVIDER = "openai";
      process.env.OPENAI_API_KEY = "test-key";
      process.env.OPENAI_MODEL = "test-model";
      process.env.OPENAI_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      resetEnv();
    });
    afterAll(async () => {
      for (const k of ["MODEL_PROVIDER", "OPENAI_API_KEY", "OPENAI_MODEL", "OPENAI_BASE_URL"])
        delete process.env[k];
      resetEnv();
      await new Promise((r) => server.close(r));
    });

    it("asks for structured output against the schema and stores the validated answer", async () => {
      reply = JSON.stringify({
        category: "return_request",
        sentiment: "negative",
        urgency: "medium",
        summary: "Customer returned\nthe damaged coffee machine from order 7718.",
        nextStep: "Refund to the original card.",
      });
      const res = await triage(returnChat);
      expect(res.status).toBe(200);
      const { triage: stored } = await res.json();
      expect(stored).toMatchObject({
        method: "model",
        model: { provider: "openai", id: "test-model" },
      });
      // One line, as the stored schema requires.
      expect(stored.triage.summary).toBe(
        "Customer returned the damaged coffee machine from order 7718.",
      );
      const body = requests.at(-1)!.body as {
        response_format: { type: string; json_schema: { schema: { required: string[] } } };
        messages: { role: string; content: string }[];
      };
      expect(body.response_format.type).toBe("json_schema");
      expect(body.response_format.json_schema.schema.required.sort()).toEqual(
        ["category", "nextStep", "sentiment", "summary", "urgency"].sort(),
      );
      const prompt = body.messages.map((m) => m.content).join("\n");
      expect(prompt).toMatch(/<transcript>[\s\S]*order 7718[\s\S]*<\/transcript>/);
    });

    it("an answer outside the schema is a 502 and keeps the previous triage", async () => {
      const before = (await (await transcript(returnChat)).json()).triage;
      reply = JSON.stringify({ category: "refund_please", sentiment: "negative" });
      const res = await triage(returnChat);
      expect(res.status).toBe(502);
      expect((await res.json()).error.code).toBe("model_unavailable");
      expect((await (await transcript(returnChat)).json()).triage).toEqual(before);
    });
  });
});
