/**
 * cancel_order's policy and money, at the action core (what no test covered before): an order that
 * has already left the warehouse cannot be proposed for cancellation; the refund that is stored
 * and answered is the plan's refund, the one the customer confirmed; and another customer's
 * cancellation is never anyone else's answer. Runs on SQLite and PostgreSQL.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import {
  cancelOrderIfUnchanged,
  getCancellationByOrderId,
  insertCancellationIfAbsent,
} from "@/db/queries/cancellations";
import { orderCancellations, orders, pendingActions } from "@/db/schema";
import { confirmAction } from "@/lib/actions";
import { executeToolCall } from "@/lib/actions/executor";
import { cancelOrder } from "@/lib/tools/cancel-order";
import { writeEffectOnce } from "@/lib/tools/write-effect";
import { auditRows, type Core, newChat, orderRow, proposeWith, setupCore } from "./fixtures";

let core: Core;
beforeEach(async () => {
  core = await setupCore();
});

const cancel = (orderId: string) => ({ orderId, reason: "changed_mind", comment: null });

describe("cancel_order", () => {
  it.each([
    ["anna", "8041", "in_transit"],
    ["boris", "2255", "shipped"],
  ] as const)(
    "%s's order %s (%s) cannot be proposed for cancellation: already_shipped, no action",
    async (who, orderId, status) => {
      const userId = core[who];
      expect((await orderRow(core.db, orderId)).status).toBe(status);
      const chat = await newChat(core.db, userId);
      const outcome = await executeToolCall("cancel_order", cancel(orderId), {
        userId,
        chatId: chat,
      });
      expect(outcome).toMatchObject({
        kind: "error",
        status: "business_error",
        code: "already_shipped",
      });
      expect(
        await core.db.select().from(pendingActions).where(eq(pendingActions.chatId, chat)),
      ).toEqual([]);
      expect((await auditRows(core.db)).filter((e) => e.chatId === chat)).toMatchObject([
        { tool: "cancel_order", status: "business_error", errorCode: "already_shipped" },
      ]);
    },
  );

  it.each([
    [
      "cancelled outside this tool (no cancellation on record)",
      { status: "cancelled" as const },
      "already_cancelled",
      /^Order 3004 is already cancelled\.$/,
    ],
    [
      "delivered, still returnable",
      { status: "delivered" as const, deliveredAt: new Date() },
      "already_delivered",
      /^Order 3004 has been delivered, so it can no longer be cancelled, but it can still be returned/,
    ],
    [
      "delivered, its return window over",
      { status: "delivered" as const, deliveredAt: new Date(Date.now() - 400 * 86_400_000) },
      "already_delivered_not_returnable",
      /^Order 3004 has been delivered, so it can no longer be cancelled, and its return window has ended\.$/,
    ],
  ])(
    "an order %s: refused with its code and a message that says why",
    async (_name, set, code, says) => {
      await core.db.update(orders).set(set).where(eq(orders.id, "3004"));
      const chat = await newChat(core.db, core.anna);
      const outcome = await executeToolCall("cancel_order", cancel("3004"), {
        userId: core.anna,
        chatId: chat,
      });
      expect(outcome).toMatchObject({ kind: "error", status: "business_error", code });
      expect((outcome as { message: string }).message).toMatch(says);
      expect(
        await core.db.select().from(pendingActions).where(eq(pendingActions.chatId, chat)),
      ).toEqual([]);
    },
  );

  it("the stored cancellation's refund and Confirm's result are the plan's refund", async () => {
    const action = await proposeWith(
      "cancel_order",
      core.anna,
      await newChat(core.db, core.anna),
      cancel("3004"),
    );
    const plan = action.plan as {
      refund: { amount: number; currency: string; destination: string };
    };
    const order = await orderRow(core.db, "3004");
    expect(plan.refund).toEqual({
      amount: order.totalMinor,
      currency: order.currency,
      destination: order.paymentMethod,
    });
    const { result } = await confirmAction({ actionId: action.id, userId: core.anna });
    expect((result as unknown as { refund: unknown }).refund).toEqual(plan.refund);
    const [row] = await core.db
      .select()
      .from(orderCancellations)
      .where(eq(orderCancellations.orderId, "3004"));
    expect({
      amount: row!.refundAmountMinor,
      currency: row!.refundCurrency,
      destination: row!.refundDestination,
    }).toEqual(plan.refund);
  });

  it("asking to cancel another customer's already-cancelled order gets not-found, never that cancellation", async () => {
    const borisAction = await proposeWith(
      "cancel_order",
      core.boris,
      await newChat(core.db, core.boris),
      cancel("1187"),
    );
    const done = await confirmAction({ actionId: borisAction.id, userId: core.boris });
    const borisCancellation = (done.result as unknown as { cancellationId: string }).cancellationId;

    const chat = await newChat(core.db, core.anna);
    const outcome = await executeToolCall("cancel_order", cancel("1187"), {
      userId: core.anna,
      chatId: chat,
    });
    expect(outcome).toMatchObject({
      kind: "error",
      status: "business_error",
      code: "order_not_found",
    });
    expect(JSON.stringify(outcome)).not.toContain(borisCancellation);
    const annaEvents = (await auditRows(core.db)).filter((e) => e.chatId === chat);
    expect(JSON.stringify(annaEvents)).not.toContain(borisCancellation);
  });

  it("crash recovery finds a confirmed cancellation by its action id, and nothing under another id", async () => {
    const action = await proposeWith(
      "cancel_order",
      core.anna,
      await newChat(core.db, core.anna),
      cancel("3004"),
    );
    const { result } = await confirmAction({ actionId: action.id, userId: core.anna });
    expect(await cancelOrder.findEffect(action.id)).toEqual(result);
    expect(await cancelOrder.findEffect(randomUUID())).toBeNull();
  });

  it("two cancellations for one order settle on the first: the second answers with it and writes nothing", async () => {
    const row = (actionId: string) => ({
      id: `C-${actionId.slice(0, 8)}`,
      orderId: "3004",
      userId: core.anna,
      reason: "changed_mind" as const,
      comment: null,
      refundAmountMinor: 100,
      refundCurrency: "EUR",
      refundDestination: "card",
      actionId,
      operationId: actionId,
      createdAt: new Date(),
    });
    const first = row(randomUUID());
    const second = row(randomUUID());
    const write = (r: typeof first) =>
      writeEffectOnce({
        insert: () => insertCancellationIfAbsent(r),
        winner: () => getCancellationByOrderId({ orderId: "3004" }),
        compareAndSet: async () => true,
        toResult: (c, createdNow) => ({ operationId: c.operationId, createdNow }),
        moved: { code: "order_changed", message: "moved" },
      });
    expect(await write(first)).toEqual({
      kind: "done",
      result: { operationId: first.operationId, createdNow: true },
      effects: [],
    });
    expect(await write(second)).toEqual({
      kind: "done",
      result: { operationId: first.operationId, createdNow: false },
    });
    expect(
      await core.db.select().from(orderCancellations).where(eq(orderCancellations.orderId, "3004")),
    ).toHaveLength(1);
  });

  it("the compare-and-set cancels only the owner's processing order at the expected version", async () => {
    const { version } = await orderRow(core.db, "3004");
    const now = new Date();
    const cas = (userId: string, expectedVersion: number) =>
      cancelOrderIfUnchanged({ orderId: "3004", userId, expectedVersion, now });
    expect(await cas(core.anna, version + 1)).toBe(false);
    expect(await cas(core.boris, version)).toBe(false);
    expect((await orderRow(core.db, "3004")).status).toBe("processing");
    expect(await cas(core.anna, version)).toBe(true);
    expect(await orderRow(core.db, "3004")).toMatchObject({
      status: "cancelled",
      version: version + 1,
    });
    // Cancelled now: not processing any more, whatever the version.
    expect(await cas(core.anna, version + 1)).toBe(false);
  });
});
