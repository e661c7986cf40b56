/**
 * What the system's own plan (replanToolCall, after a store refused a confirmed write) stores for
 * each way it can end, with the real tools: a fresh proposal under the id it was given, a refusal
 * by the tool's policy, a name that is no write tool, an existing record. Each is one
 * `system:replan` audit event in the same transaction as the caller's message, naming the action
 * it replaces; only an outcome that says nothing about the order (isTransient) stores nothing.
 */
import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import {
  dryRunToolCall,
  isTransient,
  REPLAN_AUDIT_TOOL,
  replanToolCall,
  type ToolCallOutcome,
} from "@/lib/actions/executor";
import { auditRows, type Core, newChat, setupCore } from "./fixtures";

let core: Core;
let chat: string;
beforeEach(async () => {
  core = await setupCore();
  chat = await newChat(core.db, core.anna);
});

async function replan(name: string, rawArgs: unknown) {
  const seen: ToolCallOutcome[] = [];
  const id = randomUUID();
  const outcome = await replanToolCall({
    name,
    rawArgs,
    ctx: { userId: core.anna, chatId: chat, now: new Date() },
    id,
    replaces: "refused-action",
    cause: "order_changed_at_store",
    within: async (o) => {
      seen.push(o);
    },
  });
  const events = (await auditRows(core.db)).filter((e) => e.tool === REPLAN_AUDIT_TOOL);
  return { id, outcome, seen, events };
}

const args = (tool: string) => ({
  tool,
  replaces: "refused-action",
  cause: "order_changed_at_store",
  proposedBy: "system",
});

describe("replanToolCall", () => {
  it("a plan the policy allows: a proposal under the given id, audited as the system's", async () => {
    const { id, outcome, seen, events } = await replan("create_return_request", {
      orderId: "7718",
      reason: "damaged",
    });
    expect(outcome).toMatchObject({
      kind: "proposal",
      tool: "create_return_request",
      action: { id },
    });
    expect(seen).toEqual([outcome]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      access: "write",
      status: "success",
      errorCode: null,
      userId: core.anna,
      chatId: chat,
      actionId: id,
      arguments: args("create_return_request"),
      result: { outcome: "proposal", actionId: id, replaces: "refused-action" },
    });
  });

  it("a plan the policy refuses: the refusal, audited against the refused action", async () => {
    // 3004 is still processing: a return needs a delivered order.
    const { outcome, seen, events } = await replan("create_return_request", {
      orderId: "3004",
      reason: "damaged",
    });
    expect(outcome).toMatchObject({
      kind: "error",
      tool: "create_return_request",
      status: "business_error",
    });
    expect(seen).toEqual([outcome]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      status: "business_error",
      errorCode: (outcome as { code: string }).code,
      actionId: "refused-action",
      arguments: args("create_return_request"),
      result: { outcome: "refused", replaces: "refused-action" },
    });
  });

  it.each(["get_order_status", "no_such_tool"])(
    "%s is no write tool: refused as unknown, audited",
    async (name) => {
      const { outcome, events } = await replan(name, { orderId: "7718" });
      expect(outcome).toMatchObject({ kind: "error", status: "rejected", code: "unknown_tool" });
      expect(events[0]).toMatchObject({
        status: "rejected",
        errorCode: "unknown_tool",
        actionId: "refused-action",
        result: { outcome: "refused", replaces: "refused-action" },
      });
    },
  );

  it("arguments the tool refuses: invalid, audited, nothing proposed", async () => {
    const { outcome, events } = await replan("create_return_request", { orderId: 7718 });
    expect(outcome).toMatchObject({ kind: "error", status: "rejected", code: "invalid_arguments" });
    expect(events[0]).toMatchObject({
      status: "rejected",
      errorCode: "invalid_arguments",
      actionId: "refused-action",
      // Staff's audit shows which argument was wrong.
      result: {
        outcome: "refused",
        replaces: "refused-action",
        code: "invalid_arguments",
        issues: expect.arrayContaining([expect.objectContaining({ path: "orderId" })]),
      },
    });
  });
});

describe("dryRunToolCall (a candidate in shadow)", () => {
  const dry = (name: string, rawArgs: unknown) =>
    dryRunToolCall(name, rawArgs, { userId: core.anna, chatId: chat, now: new Date() });

  it("plans a write without storing anything; refuses as the live path would", async () => {
    const before = (await auditRows(core.db)).length;
    expect(await dry("create_return_request", { orderId: "7718", reason: "damaged" })).toEqual({
      kind: "planned",
      tool: "create_return_request",
    });
    expect(await dry("no_such_tool", {})).toMatchObject({
      kind: "error",
      status: "rejected",
      code: "unknown_tool",
    });
    expect(await dry("create_return_request", { orderId: 7718 })).toMatchObject({
      kind: "error",
      status: "rejected",
      code: "invalid_arguments",
    });
    expect(
      await dry("create_return_request", { orderId: "3004", reason: "damaged" }),
    ).toMatchObject({
      kind: "error",
      status: "business_error",
    });
    // A read answers as it would live.
    const read = await dry("get_order_status", { orderId: "7718" });
    expect(read.tool).toBe("get_order_status");
    expect(read.kind).not.toBe("error");
    expect((await auditRows(core.db)).length).toBe(before);
  });
});

describe("isTransient", () => {
  it.each([
    [{ kind: "error", tool: "t", status: "timeout", code: "timeout", message: "" }, true],
    [
      { kind: "error", tool: "t", status: "technical_error", code: "technical_error", message: "" },
      true,
    ],
    [
      { kind: "error", tool: "t", status: "rejected", code: "store_unreachable", message: "" },
      true,
    ],
    [
      { kind: "error", tool: "t", status: "business_error", code: "order_not_found", message: "" },
      false,
    ],
    [
      { kind: "error", tool: "t", status: "rejected", code: "invalid_arguments", message: "" },
      false,
    ],
    [{ kind: "existing", tool: "t", data: {} }, false],
  ])("%j → %s", (outcome, transient) => {
    expect(isTransient(outcome as ToolCallOutcome)).toBe(transient);
  });
});
