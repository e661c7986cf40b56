/**
 * The executor is the only door from the model to the tools: every call, good or bad, ends in
 * exactly one audit event and an outcome the model can read without seeing internals.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { confirmAction } from "@/lib/actions/confirm";
import { executeToolCall } from "@/lib/actions/executor";
import { modelView } from "@/lib/actions/model-view";
import { type CreateReturnArgs, createReturnRequest } from "@/lib/tools/create-return-request";
import { createRegistry, TOOLS, toolDescriptors } from "@/lib/tools/registry";
import type { ReadTool, WriteTool } from "@/lib/tools/types";
import { auditRows, type Core, newChat, proposeWith, rowCounts, setupCore } from "./fixtures";

let core: Core;
let chat: string;
beforeAll(async () => {
  core = await setupCore();
  chat = await newChat(core.db, core.anna);
});

const ctx = () => ({
  userId: core.anna,
  chatId: chat,
  toolCallId: "call_1",
  promptVersion: "p-7",
  model: "test-model",
});

/** Runs one call and returns its outcome plus the audit events it wrote. */
async function call(name: string, args: unknown, registry?: Parameters<typeof executeToolCall>[3]) {
  const before = (await auditRows(core.db)).length;
  const outcome = await executeToolCall(name, args, ctx(), registry);
  return { outcome, events: (await auditRows(core.db)).slice(before), view: modelView(outcome) };
}

describe("allowlist and argument validation", () => {
  it("an unknown tool is rejected and audited under the name the model used; nothing runs", async () => {
    const before = await rowCounts(core.db);
    const { outcome, events, view } = await call("run_shell", { cmd: "rm -rf /" });
    expect(outcome).toMatchObject({ kind: "error", status: "rejected", code: "unknown_tool" });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      tool: "run_shell",
      status: "rejected",
      errorCode: "unknown_tool",
      access: null,
      userId: core.anna,
      chatId: chat,
      toolCallId: "call_1",
      promptVersion: "p-7",
      model: "test-model",
      arguments: { cmd: "rm -rf /" },
    });
    expect(view).toEqual({
      ok: false,
      error: { status: "rejected", code: "unknown_tool", message: expect.any(String) },
    });
    expect({ ...(await rowCounts(core.db)), auditEvents: before.auditEvents }).toEqual(before);
  });

  it("prototype names are not tools", async () => {
    for (const name of ["constructor", "__proto__", "toString"]) {
      const { outcome } = await call(name, {});
      expect(outcome).toMatchObject({ kind: "error", status: "rejected", code: "unknown_tool" });
    }
  });

  it("invalid arguments are rejected with issues the model can act on", async () => {
    const { outcome, events, view } = await call("get_order_status", {
      orderId: 7718,
      admin: true,
    });
    expect(outcome).toMatchObject({ kind: "error", status: "rejected", code: "invalid_arguments" });
    expect(events).toEqual([
      expect.objectContaining({ tool: "get_order_status", access: "read", status: "rejected" }),
    ]);
    if (view.ok) throw new Error("expected an error view");
    const paths = view.error.issues?.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(["orderId", "(arguments)"]));
  });

  it("a write tool with invalid arguments stores no pending action", async () => {
    const before = await rowCounts(core.db);
    const { outcome } = await call("create_return_request", {
      orderId: "7718",
      reason: "changed my mind",
    });
    expect(outcome).toMatchObject({ kind: "error", status: "rejected", code: "invalid_arguments" });
    expect((await rowCounts(core.db)).pendingActions).toBe(before.pendingActions);
  });
});

describe("read tools", () => {
  it("get_order_status answers with the customer's own order (success)", async () => {
    const { outcome, events, view } = await call("get_order_status", { orderId: "8041" });
    expect(outcome).toMatchObject({
      kind: "result",
      data: {
        orderId: "8041",
        status: "in_transit",
        estimatedDeliveryAt: expect.any(String),
        returnRequest: null,
      },
    });
    expect(events).toEqual([
      expect.objectContaining({
        tool: "get_order_status",
        status: "success",
        access: "read",
        durationMs: expect.any(Number),
      }),
    ]);
    expect(view).toEqual({ ok: true, data: (outcome as { data: unknown }).data });
  });

  it("another customer's existing order reads exactly like a missing one (business_error)", async () => {
    const others = await call("get_order_status", { orderId: "4410" });
    const missing = await call("get_order_status", { orderId: "0000" });
    expect(others.view).toEqual({
      ok: false,
      error: {
        status: "business_error",
        code: "order_not_found",
        message: "No order 4410 was found for this customer.",
      },
    });
    expect(missing.view).toEqual({
      ok: false,
      error: {
        status: "business_error",
        code: "order_not_found",
        message: "No order 0000 was found for this customer.",
      },
    });
    expect(JSON.stringify(others.events)).not.toContain("Keyboard");
    expect(others.events[0]).toMatchObject({
      status: "business_error",
      errorCode: "order_not_found",
    });
  });

  it("the injected delivery note comes back as a labelled data field, nothing else happens", async () => {
    const before = await rowCounts(core.db);
    const { outcome } = await call("get_order_status", { orderId: "9307" });
    expect(outcome.kind).toBe("result");
    const data = (outcome as { data: Record<string, unknown> }).data;
    expect(data.customerDeliveryNote).toMatch(/ignore all previous instructions/i);
    expect(await rowCounts(core.db)).toEqual({ ...before, auditEvents: before.auditEvents + 1 });
  });

  it("get_return_policy takes no arguments and states the 30-day window", async () => {
    const { outcome } = await call("get_return_policy", undefined);
    expect(outcome).toMatchObject({
      kind: "result",
      data: { windowDays: 30, acceptedReasons: ["defective", "damaged", "other"] },
    });
    // What the model answers policy questions from: every rule is there, with its numbers.
    const data = (outcome as { data: Record<string, unknown> }).data;
    expect(data.windowStarts).toBe("delivery");
    expect(data.refund).toMatch(/full order total .* original payment method/);
    expect(data.notReturnable).toEqual([
      "orders that have not been delivered yet",
      "cancelled orders",
      "orders delivered more than 30 days ago",
      "orders that already have a return request (one return per order)",
    ]);
    expect(data.howToRequest).toMatch(/up to \d+ characters\..*Confirm/);
    const extra = await call("get_return_policy", { orderId: "7718" });
    expect(extra.outcome).toMatchObject({ status: "rejected", code: "invalid_arguments" });
  });
});

describe("timeouts and technical errors", () => {
  const slow: ReadTool<"slow_lookup", z.ZodObject, z.ZodObject> = {
    name: "slow_lookup",
    access: "read",
    description: "test tool that never answers in time",
    help: { en: "test", ru: "тест" },
    args: z.strictObject({}),
    result: z.strictObject({}),
    timeoutMs: 20,
    async execute() {
      await sleep(500);
      return {};
    },
  };
  const broken: ReadTool<"broken_lookup", z.ZodObject, z.ZodObject> = {
    name: "broken_lookup",
    access: "read",
    description: "test tool whose backend fails",
    help: { en: "test", ru: "тест" },
    args: z.strictObject({}),
    result: z.strictObject({}),
    execute() {
      throw new Error("connect ECONNREFUSED 10.0.0.5:5432 password=hunter2");
    },
  };
  const sloppy: ReadTool<"sloppy_lookup", z.ZodObject, z.ZodObject> = {
    name: "sloppy_lookup",
    access: "read",
    description: "test tool returning more than its schema allows",
    help: { en: "test", ru: "тест" },
    args: z.strictObject({}),
    result: z.strictObject({ ok: z.boolean() }),
    execute: () => ({ ok: true, internalNote: "secret" }) as { ok: boolean },
  };
  // A write tool whose plan() finishes only when the test says so (no timers in assertions).
  let releasePlan: () => void = () => {};
  let planFinished: Promise<unknown> = Promise.resolve();
  const gatedWrite: WriteTool = {
    ...createReturnRequest,
    name: "gated_return",
    timeoutMs: 10,
    plan(args, c) {
      const gate = new Promise<void>((r) => {
        releasePlan = r;
      });
      const done = gate.then(
        async () => await createReturnRequest.plan(args as CreateReturnArgs, c),
      );
      planFinished = done;
      return done;
    },
  };
  const registry = createRegistry([...TOOLS, slow, broken, sloppy, gatedWrite]);

  it("a read tool that does not answer in time gives `timeout`", async () => {
    const { outcome, events } = await call("slow_lookup", {}, registry);
    expect(outcome).toMatchObject({ kind: "error", status: "timeout", code: "timeout" });
    expect(events).toEqual([
      expect.objectContaining({ tool: "slow_lookup", status: "timeout", errorCode: "timeout" }),
    ]);
  });

  it("a write whose plan() times out stores nothing, even when the plan finishes later", async () => {
    const before = await rowCounts(core.db);
    const { outcome } = await call(
      "gated_return",
      { orderId: "7718", reason: "damaged" },
      registry,
    );
    expect(outcome).toMatchObject({ kind: "error", status: "timeout" });
    releasePlan();
    await planFinished;
    expect(await rowCounts(core.db)).toEqual({ ...before, auditEvents: before.auditEvents + 1 });
  });

  it("an unexpected failure gives `technical_error` and never shows internals to the model", async () => {
    const { outcome, events, view } = await call("broken_lookup", {}, registry);
    expect(outcome).toMatchObject({
      kind: "error",
      status: "technical_error",
      code: "internal_error",
    });
    expect(JSON.stringify(view)).not.toMatch(/ECONNREFUSED|hunter2/);
    expect(JSON.stringify(events)).not.toMatch(/hunter2/);
    expect(events[0]).toMatchObject({ status: "technical_error" });
  });

  it("a result outside its schema is a technical error, not data", async () => {
    const { outcome, view } = await call("sloppy_lookup", {}, registry);
    expect(outcome).toMatchObject({ kind: "error", status: "technical_error" });
    expect(JSON.stringify(view)).not.toContain("secret");
  });
});

describe("descriptors for the model", () => {
  it("advertises exactly the allowlist with strict JSON schemas and explicit access", () => {
    const d = toolDescriptors();
    expect(d.map((t) => [t.name, t.access])).toEqual([
      ["get_order_status", "read"],
      ["get_return_policy", "read"],
      ["create_return_request", "write"],
      ["cancel_order", "write"],
      ["change_delivery_address", "write"],
      ["exchange_items", "write"],
    ]);
    for (const t of d)
      expect(t.inputJsonSchema).toMatchObject({ type: "object", additionalProperties: false });
    expect(d[2]!.inputJsonSchema).toMatchObject({ required: ["orderId", "reason"] });
    expect(d[3]!.inputJsonSchema).toMatchObject({ required: ["orderId", "reason"] });
    expect(d[4]!.inputJsonSchema).toMatchObject({ required: ["orderId", "address"] });
    expect(d[5]!.inputJsonSchema).toMatchObject({ required: ["orderId", "to"] });
  });
});

// Last in this file: it makes a return for 7718, which the cases above read as returnable.
describe("get_order_status after a return", () => {
  it("names the order's return request and gives no delivery estimate for a delivered order", async () => {
    const action = await proposeWith("create_return_request", core.anna, chat, {
      orderId: "7718",
      reason: "damaged",
      comment: null,
    });
    const done = await confirmAction({ actionId: action.id, userId: core.anna });
    const requestId = (done.result as unknown as { requestId: string }).requestId;
    const { outcome } = await call("get_order_status", { orderId: "7718" });
    if (outcome.kind !== "result") throw new Error(`expected a result, got ${outcome.kind}`);
    const data = outcome.data as Record<string, unknown>;
    expect(data.returnRequest).toEqual({
      requestId,
      reason: "damaged",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(data).toMatchObject({
      orderId: "7718",
      status: "delivered",
      deliveredAt: expect.any(String),
      estimatedDeliveryAt: null,
      total: { amount: expect.any(Number), currency: "EUR" },
    });
    expect(data.items).toEqual(
      expect.arrayContaining([
        {
          lineId: expect.any(String),
          name: expect.any(String),
          quantity: expect.any(Number),
          unitPrice: expect.any(Number),
          options: {},
          finalSale: false,
          // The return of the whole order gave back every unit of each line.
          returned: expect.any(Number),
          exchanged: 0,
        },
      ]),
    );
    expect(
      (data.items as { quantity: number; returned: number }[]).every(
        (i) => i.returned === i.quantity,
      ),
    ).toBe(true);
  });
});
