/**
 * cancel_order through the real routes, as a customer and staff see it: a card from the chat, one
 * Confirm that cancels the order, the existing cancellation on a repeat (no second card), a
 * shipment between plan and Confirm (staff's audited "mark shipped") making the action stale,
 * and GET /api/audit listing cancel_order calls like any other tool's.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { GET as listAudit } from "@/app/api/audit/route";
import { POST as shipRoute } from "@/app/api/staff/orders/[id]/ship/route";
import { Customer } from "../helpers/chat";
import { useTestDatabase } from "../helpers/db";
import { call, signIn } from "../helpers/http";
import { pendingActionPart, toolCalls } from "../helpers/stream";
import { orderRow } from "./action-core/fixtures";

describe("cancel_order end to end through the routes", () => {
  let anna: Customer;
  let boris: Customer;
  let staff: string;

  beforeAll(async () => {
    await useTestDatabase();
    anna = await Customer.signIn("anna@example.com");
    boris = await Customer.signIn("boris@example.com");
    staff = await signIn("staff@example.com");
  });

  const ship = (orderId: string, cookie = staff) =>
    call(
      shipRoute,
      `/api/staff/orders/${orderId}/ship`,
      { id: orderId },
      { cookie, method: "POST" },
    );
  const audit = async (query: string) => {
    const res = await call(listAudit, `/api/audit${query}`, {}, { cookie: staff });
    expect(res.status).toBe(200);
    return (await res.json()).events as {
      tool: string;
      status: string;
      actionId: string | null;
      errorCode: string | null;
    }[];
  };

  it("asking is not requesting: a lookup and an answer, no card", async () => {
    const turn = await anna.say(await anna.newChat(), "Can I still cancel 3004?");
    expect(toolCalls(turn.message).map((c) => c.tool)).toEqual(["get_order_status"]);
    expect(pendingActionPart(turn.message)).toBeUndefined();
    expect(turn.text).toContain("it can still be cancelled");
  });

  it("a card described by the tool; Confirm cancels the order once; a repeat gets the existing cancellation", async () => {
    const chat = await anna.newChat();
    const turn = await anna.say(chat, "I ordered it by mistake, please cancel 3004");
    const part = pendingActionPart(turn.message)!;
    expect(part.data).toMatchObject({
      tool: "cancel_order",
      status: "pending",
      arguments: { orderId: "3004", reason: "ordered_by_mistake", comment: null },
      plan: {
        effect: "cancel_order",
        order: { id: "3004", status: "processing" },
        refund: { amount: 4500, currency: "EUR", destination: "Visa •••• 4242" },
        externalRequests: 0,
      },
      view: {
        title: "Confirm the cancellation of order 3004",
        amount: { key: "refund", value: "€45.00", detail: "to Visa •••• 4242" },
      },
    });
    expect(turn.text).toContain("I've prepared the cancellation of order 3004");

    const res = await anna.confirm(part.id!);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.result).toMatchObject({ orderId: "3004", status: "cancelled", createdNow: true });
    // As the confirm committed it: the refund is stored, not yet carried out (no relay here).
    expect(body.action.view.outcome).toEqual({
      tone: "neutral",
      text: expect.stringMatching(/^Order 3004 is cancelled\. Refund of €45\.00: processing\./),
      settled: false,
    });
    expect((await orderRow((await import("@/db")).getDb(), "3004")).status).toBe("cancelled");
    expect((await anna.confirm(part.id!)).status).toBe(409);

    const again = await anna.say(await anna.newChat(), "cancel my order 3004");
    expect(pendingActionPart(again.message)).toBeUndefined();
    expect(again.text).toContain("Order 3004 is already cancelled");

    // The audit lists cancel_order like any tool: the proposal, the executed write, and the
    // repeat answered from the existing record (no action id).
    const events = await audit("?tool=cancel_order");
    expect(events.map((e) => [e.status, e.actionId])).toEqual([
      ["success", null],
      ["success", part.id],
      ["confirmation_required", part.id],
    ]);
  });

  it("a shipment between plan and Confirm makes the action stale; nothing is cancelled", async () => {
    const chat = await boris.newChat();
    const turn = await boris.say(chat, "Отмените заказ 1187");
    const part = pendingActionPart(turn.message)!;
    expect(part.data).toMatchObject({
      tool: "cancel_order",
      view: { title: "Подтвердите отмену заказа 1187" },
    });

    // Only staff may mark it shipped; the change is audited.
    expect((await ship("1187", boris.cookie)).status).toBe(403);
    const shipped = await ship("1187");
    expect(shipped.status).toBe(200);
    expect((await shipped.json()).order).toMatchObject({
      id: "1187",
      status: "shipped",
      version: 2,
    });
    expect((await ship("1187")).status).toBe(409);

    const res = await boris.confirm(part.id!);
    expect(res.status).toBe(409);
    expect((await res.json()).error).toMatchObject({ code: "stale", status: "stale" });
    const { getDb } = await import("@/db");
    expect((await orderRow(getDb(), "1187")).status).toBe("shipped");

    const staffEvents = await audit("?tool=staff%3Amark_order_shipped");
    expect(staffEvents.map((e) => [e.status, e.errorCode])).toEqual([
      ["business_error", "not_processing"],
      ["success", null],
    ]);
    expect((await audit("?tool=cancel_order&status=stale")).map((e) => e.actionId)).toEqual([
      part.id,
    ]);

    // Now the model explains why it cannot be cancelled, with a pointer to a return.
    const later = await boris.say(await boris.newChat(), "Cancel order 1187 please");
    expect(later.text).toContain("has already shipped");
    expect(later.text).toContain("return");
  });
});
