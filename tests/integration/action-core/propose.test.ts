/**
 * Proposing a return: the policy decides, an allowed plan becomes one pending action with
 * everything confirm will check, and plan() itself never writes.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { getActionForUser, getPendingActionForChat, supersedePendingForUser } from "@/lib/actions";
import { executeToolCall } from "@/lib/actions/executor";
import { payloadHash } from "@/lib/actions/hash";
import { modelView } from "@/lib/actions/model-view";
import { createReturnRequest } from "@/lib/tools/create-return-request";
import { ToolBusinessError } from "@/lib/tools/types";
import { changeMark } from "../../helpers/db";
import {
  actionRow,
  auditFor,
  auditRows,
  type Core,
  newChat,
  orderRow,
  propose,
  rowCounts,
  setupCore,
} from "./fixtures";

let core: Core;
let chat: string;
beforeEach(async () => {
  core = await setupCore({ PENDING_ACTION_TTL_SECONDS: "600" });
  chat = await newChat(core.db, core.anna);
});

describe("propose", () => {
  it("stores normalized arguments, their hash, the docs/domain.md plan, the order version and the TTL", async () => {
    const now = new Date();
    const action = await propose(
      core.anna,
      chat,
      { reason: "damaged", comment: "  box\n\n crushed ", orderId: "7718" },
      { now, toolCallId: "call_9" },
    );
    expect(action).toMatchObject({
      chatId: chat,
      tool: "create_return_request",
      arguments: { orderId: "7718", reason: "damaged", comment: "box crushed" },
      status: "pending",
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + 600_000).toISOString(),
      decidedAt: null,
      plan: {
        effect: "create_return_request",
        order: { id: "7718", status: "delivered", total: { amount: 25890, currency: "EUR" } },
        eligible: true,
        refund: { amount: 25890, currency: "EUR", destination: "Visa •••• 4242" },
        existingRequest: null,
        externalRequests: 0,
      },
    });
    const row = await actionRow(core.db, action.id);
    expect(row.payloadHash).toBe(
      payloadHash({
        tool: "create_return_request",
        userId: core.anna,
        arguments: action.arguments,
      }),
    );
    expect(row).toMatchObject({
      targetType: "order",
      targetId: "7718",
      targetVersion: (await orderRow(core.db, "7718")).version,
      toolCallId: "call_9",
    });
    expect(await auditFor(core.db, action.id)).toEqual([
      expect.objectContaining({
        status: "confirmation_required",
        tool: "create_return_request",
        access: "write",
        toolCallId: "call_9",
        promptVersion: "test-prompt-1",
        model: "test-model",
      }),
    ]);
    expect(await getPendingActionForChat({ chatId: chat, userId: core.anna })).toEqual(action);
  });

  it("tells the model that nothing happened yet", async () => {
    const outcome = await executeToolCall(
      "create_return_request",
      { orderId: "7718", reason: "defective" },
      { userId: core.anna, chatId: chat },
    );
    expect(outcome.kind).toBe("proposal");
    expect(modelView(outcome)).toMatchObject({
      ok: true,
      status: "confirmation_required",
      message: expect.stringMatching(/Nothing has been created/),
    });
  });

  it.each([
    ["8041", "not_delivered"],
    ["3004", "not_delivered"],
    ["6390", "order_cancelled"],
    ["5120", "return_window_passed"],
    ["4410", "order_not_found"],
    ["1234", "order_not_found"],
  ])("order %s is refused with business_error %s and no pending action", async (orderId, code) => {
    const before = await rowCounts(core.db);
    const outcome = await executeToolCall(
      "create_return_request",
      { orderId, reason: "other" },
      { userId: core.anna, chatId: chat },
    );
    expect(outcome).toMatchObject({ kind: "error", status: "business_error", code });
    expect(await rowCounts(core.db)).toEqual({ ...before, auditEvents: before.auditEvents + 1 });
    expect((await auditRows(core.db)).at(-1)).toMatchObject({
      status: "business_error",
      errorCode: code,
      access: "write",
    });
  });

  it("a new proposal in the same chat supersedes the older one", async () => {
    const first = await propose(core.anna, chat, { orderId: "7718", reason: "damaged" });
    const second = await propose(core.anna, chat, { orderId: "9307", reason: "other" });
    expect(await getActionForUser({ actionId: first.id, userId: core.anna })).toMatchObject({
      status: "superseded",
      decidedAt: expect.any(String),
    });
    expect((await auditFor(core.db, first.id)).map((e) => e.status)).toEqual([
      "confirmation_required",
      "superseded",
    ]);
    expect((await getPendingActionForChat({ chatId: chat, userId: core.anna }))?.id).toBe(
      second.id,
    );
  });

  it("a new proposal for the same order in another chat supersedes the older one", async () => {
    const first = await propose(core.anna, chat, { orderId: "7718", reason: "damaged" });
    const otherChat = await newChat(core.db, core.anna);
    await propose(core.anna, otherChat, { orderId: "7718", reason: "defective" });
    expect((await actionRow(core.db, first.id)).status).toBe("superseded");
    expect(await getPendingActionForChat({ chatId: chat, userId: core.anna })).toBeNull();
  });

  it("starting a new chat supersedes pending actions in the user's other chats only", async () => {
    const annas = await propose(core.anna, chat, { orderId: "7718", reason: "damaged" });
    const borisChat = await newChat(core.db, core.boris);
    const boriss = await propose(core.boris, borisChat, { orderId: "4410", reason: "defective" });
    const fresh = await newChat(core.db, core.anna);
    expect(await supersedePendingForUser({ userId: core.anna, exceptChatId: fresh })).toBe(1);
    expect((await actionRow(core.db, annas.id)).status).toBe("superseded");
    expect((await actionRow(core.db, boriss.id)).status).toBe("pending");
    expect(await supersedePendingForUser({ userId: core.anna, exceptChatId: fresh })).toBe(0);
  });

  it("proposing into someone else's chat is a technical error and stores nothing", async () => {
    const borisChat = await newChat(core.db, core.boris);
    const before = await rowCounts(core.db);
    const outcome = await executeToolCall(
      "create_return_request",
      { orderId: "7718", reason: "damaged" },
      { userId: core.anna, chatId: borisChat },
    );
    expect(outcome).toMatchObject({ kind: "error", status: "technical_error" });
    expect((await rowCounts(core.db)).pendingActions).toBe(before.pendingActions);
  });
});

describe("plan()", () => {
  it("performs no writes: row counts and the database change mark are unchanged", async () => {
    const before = await rowCounts(core.db);
    const changes = await changeMark();
    const ctx = { userId: core.anna, chatId: chat, now: new Date() };
    const outcomes: Record<string, string> = {};
    for (const orderId of ["7718", "8041", "5120", "6390", "4410", "9307"]) {
      try {
        await createReturnRequest.plan({ orderId, reason: "damaged", comment: null }, ctx);
        outcomes[orderId] = "plan";
      } catch (err) {
        // Refusals are business errors with a code; anything else (a crash) fails the test.
        if (!(err instanceof ToolBusinessError)) throw err;
        outcomes[orderId] = err.code;
      }
    }
    expect(outcomes).toEqual({
      "7718": "plan",
      "8041": "not_delivered",
      "5120": "return_window_passed",
      "6390": "order_cancelled",
      "4410": "order_not_found",
      "9307": "plan",
    });
    expect(await changeMark()).toBe(changes);
    expect(await rowCounts(core.db)).toEqual(before);
  });
});
