/**
 * Conversational shapes through the real route handlers and the offline model: a follow-up that
 * leans on the order of the turn before, and a question and a request in one message, in either
 * order and for every write tool (the question is answered and the write proposed in the same
 * turn). English and Russian, and Russian typed in Latin letters.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { testTable as addressTable } from "@/lib/tools/change-delivery-address/test-table";
import { Customer } from "../helpers/chat";
import { useTestDatabase } from "../helpers/db";
import { auditStatuses } from "../helpers/inspect";
import { pendingActionPart, toolCalls } from "../helpers/stream";

const CASES = {
  en: {
    ask: "Was 7718 delivered?",
    followUp: "Then please take it back, it doesn't work",
    both: "What's the status of 3004? Also I'd like to return 7718, it's defective",
    cancelFirst: "Please cancel order 3004. And where is 7718?",
    addressBoth:
      "Where is 8041? Also change the delivery address of 3004 to Anna Petrova, Torstraße 1, 10119 Berlin, DE",
  },
  ru: {
    ask: "Доставлен ли заказ 7718?",
    followUp: "Тогда верните его, он не работает",
    both: "Какой статус у заказа 3004? И ещё хочу вернуть 7718, он бракованный",
    cancelFirst: "Отмените заказ 3004. А где заказ 7718?",
    addressBoth:
      "Где заказ 8041? И смените адрес доставки заказа 3004 на Anna Petrova, Torstraße 1, 10119 Berlin, DE",
  },
} as const;

const addressCase = addressTable.case;

for (const [lang, t] of Object.entries(CASES)) {
  describe(`follow-ups and two requests (${lang})`, () => {
    let anna: Customer;
    beforeAll(async () => {
      await useTestDatabase();
      anna = await Customer.signIn("anna@example.com");
    });

    it("a follow-up proposes the return of the order named in the turn before", async () => {
      const chat = await anna.newChat();
      const first = await anna.say(chat, t.ask);
      expect(first.text).toContain("7718");
      const second = await anna.say(chat, t.followUp);
      expect(pendingActionPart(second.message)?.data.arguments).toEqual({
        orderId: "7718",
        reason: "defective",
        comment: null,
      });
      expect((await anna.cancel(pendingActionPart(second.message)!.data.id)).status).toBe(200);
    });

    it("two requests in one message: the status is answered and the return proposed, in one turn", async () => {
      const chat = await anna.newChat();
      const turn = await anna.say(chat, t.both);
      expect(toolCalls(turn.message).map((c) => [c.tool, c.input])).toEqual([
        ["get_order_status", { orderId: "3004" }],
        ["create_return_request", { orderId: "7718", reason: "defective", comment: null }],
      ]);
      expect(turn.text).toContain("3004");
      expect(pendingActionPart(turn.message)?.data.status).toBe("pending");
      expect(await auditStatuses(chat)).toEqual([
        "get_order_status:success",
        "create_return_request:confirmation_required",
      ]);
      expect((await anna.cancel(pendingActionPart(turn.message)!.data.id)).status).toBe(200);
    });

    it("a request, then a question: the question is answered and the cancellation proposed", async () => {
      const chat = await anna.newChat();
      const turn = await anna.say(chat, t.cancelFirst);
      expect(toolCalls(turn.message).map((c) => [c.tool, c.input])).toEqual([
        ["get_order_status", { orderId: "7718" }],
        ["cancel_order", { orderId: "3004", reason: "other", comment: null }],
      ]);
      expect(turn.text).toContain("7718");
      // The answer is about 7718's status, not whether 7718 could be cancelled.
      expect(turn.text).not.toMatch(/can't be cancelled|нельзя отменить/);
      expect(pendingActionPart(turn.message)?.data).toMatchObject({
        tool: "cancel_order",
        status: "pending",
      });
      expect((await anna.cancel(pendingActionPart(turn.message)!.data.id)).status).toBe(200);
    });

    it("a question and a new delivery address: answered, and the change proposed", async () => {
      const chat = await anna.newChat();
      const turn = await anna.say(chat, t.addressBoth);
      const calls = toolCalls(turn.message).map((c) => [c.tool, c.input]);
      expect(calls[0]).toEqual(["get_order_status", { orderId: "8041" }]);
      // The message spells out the tool's own test case: order 3004 to Torstraße 1, Berlin.
      expect(calls[1]).toEqual(["change_delivery_address", addressCase.args]);
      expect(turn.text).toContain("8041");
      expect(pendingActionPart(turn.message)?.data.status).toBe("pending");
      expect((await anna.cancel(pendingActionPart(turn.message)!.data.id)).status).toBe(200);
    });
  });
}

describe("Russian typed in Latin letters", () => {
  let anna: Customer;
  beforeAll(async () => {
    await useTestDatabase();
    anna = await Customer.signIn("anna@example.com");
  });

  it("is understood and answered in Russian", async () => {
    const chat = await anna.newChat();
    const status = await anna.say(chat, "gde moy zakaz 7718?");
    expect(toolCalls(status.message).map((c) => [c.tool, c.input])).toEqual([
      ["get_order_status", { orderId: "7718" }],
    ]);
    expect(status.text).toContain("7718");
    expect(status.text).toMatch(/доставлен/);
    const cancel = await anna.say(chat, "Otmenite zakaz 3004, pozhaluysta");
    expect(pendingActionPart(cancel.message)?.data).toMatchObject({
      tool: "cancel_order",
      arguments: { orderId: "3004", reason: "other", comment: null },
    });
    expect((await anna.cancel(pendingActionPart(cancel.message)!.data.id)).status).toBe(200);
  });

  it("a 'don't' in Latin letters proposes nothing", async () => {
    const chat = await anna.newChat();
    const turn = await anna.say(chat, "ne nado otmenyat zakaz 3004");
    expect(toolCalls(turn.message)).toEqual([]);
    expect(turn.text).toMatch(/не буду|ничего не/i);
  });
});
