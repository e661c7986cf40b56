/**
 * The staff returns list and the return on an action's staff page (the server components read
 * these): newest first with each return's state and refund, and the return a chat action made,
 * or none for an action that made no return. SQLite and PostgreSQL.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { confirmAction } from "@/lib/actions/confirm";
import { listStaffReturns, markReturnReceived, staffReturnOfAction } from "@/lib/returns/receive";
import { type Core, newChat, proposeWith, setupCore } from "./action-core/fixtures";

let core: Core;
beforeAll(async () => {
  core = await setupCore();
});

async function confirmedReturn(userId: string, orderId: string, now: Date) {
  const chat = await newChat(core.db, userId);
  const action = await proposeWith(
    "create_return_request",
    userId,
    chat,
    { orderId, reason: "damaged", comment: null },
    { now },
  );
  const done = await confirmAction({ actionId: action.id, userId, now });
  return {
    actionId: action.id,
    requestId: (done.result as unknown as { requestId: string }).requestId,
  };
}

describe("staff returns", () => {
  it("the list: newest first, each with its state and refund; the action's page finds its return", async () => {
    const older = await confirmedReturn(core.anna, "7718", new Date(Date.now() - 60_000));
    const newer = await confirmedReturn(core.boris, "4410", new Date());
    await markReturnReceived({ requestId: older.requestId, staffId: core.staff });

    const list = await listStaffReturns();
    const ids = list.map((r) => r.id);
    expect(ids.indexOf(newer.requestId)).toBeLessThan(ids.indexOf(older.requestId));
    expect(list.find((r) => r.id === older.requestId)).toMatchObject({
      orderId: "7718",
      actionId: older.actionId,
      state: "received",
      receivedBy: core.staff,
      refund: { currency: "EUR", status: "pending", effectId: expect.any(String) },
    });
    expect(list.find((r) => r.id === newer.requestId)).toMatchObject({
      state: "requested",
      receivedAt: null,
      refund: { status: null, effectId: null },
    });
    expect(await listStaffReturns({ limit: 1 })).toHaveLength(1);

    expect(await staffReturnOfAction(older.actionId)).toMatchObject({
      id: older.requestId,
      state: "received",
    });
    const chat = await newChat(core.db, core.anna);
    const cancel = await proposeWith("cancel_order", core.anna, chat, {
      orderId: "3004",
      reason: "changed_mind",
      comment: null,
    });
    expect(await staffReturnOfAction(cancel.id)).toBeNull();
  });
});
