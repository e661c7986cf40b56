/**
 * Conversational shapes through the real route handlers and the offline model: a follow-up that
 * leans on the order of the turn before, and a question and a request in one message, in either
 * order and for every write tool (the question is answered and the write proposed in the same
 * turn), and new delivery addresses as customers write them. English and Russian, and Russian
 * typed in Latin letters.
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

/**
 * Addresses as people write them: no recipient's name (the order's stays, and the card says who
 * receives it), in the message after our question or after another question in between, after a
 * status question about the order, and a country we don't ship to refused by name.
 */
const ADDRESSES = {
  en: {
    request: "Change the delivery address of 3004",
    address: "12 Rue de Rivoli, 75001 Paris, France",
    between: "Where is 8041?",
    status: "Where is my order 3004?",
    after: "Please change the delivery address to 12 Rue de Rivoli, 75001 Paris, France",
    to: { line1: "12 Rue de Rivoli", postalCode: "75001", city: "Paris", country: "FR" },
    abroad: "Please ship order 3004 to 221B Baker Street, London NW1 6XE, United Kingdom",
    refused: /United Kingdom[\s\S]*Germany, Austria/,
    delivered: "Change the delivery address of 7718 to 12 Rue de Rivoli, 75001 Paris, France",
    deliveredReply: /already been delivered/,
  },
  ru: {
    request: "Смените адрес доставки заказа 3004",
    address: "Торштрассе 1, 10119 Берлин, Германия",
    between: "Где заказ 8041?",
    status: "Где мой заказ 3004?",
    after: "Смените адрес доставки на Торштрассе 1, 10119 Берлин, Германия",
    to: { line1: "Торштрассе 1", postalCode: "10119", city: "Берлин", country: "DE" },
    abroad: "Отправьте заказ 3004 по адресу: 221B Baker Street, London NW1 6XE, Великобритания",
    refused: /Великобританию[\s\S]*Германию, Австрию/,
    delivered: "Смените адрес доставки заказа 7718 на Торштрассе 1, 10119 Берлин, Германия",
    deliveredReply: /уже доставлен/,
  },
} as const;

for (const [lang, t] of Object.entries(ADDRESSES)) {
  describe(`addresses as people write them (${lang})`, () => {
    let anna: Customer;
    beforeAll(async () => {
      await useTestDatabase();
      anna = await Customer.signIn("anna@example.com");
    });

    /** The card of this turn: the address asked for, received by the order's own recipient. */
    async function expectCard(turn: Awaited<ReturnType<Customer["say"]>>) {
      const part = pendingActionPart(turn.message);
      expect(part?.data).toMatchObject({
        tool: "change_delivery_address",
        status: "pending",
        arguments: { orderId: "3004", address: { ...t.to, name: null, line2: null } },
        plan: { to: { ...t.to, name: "Anna Petrova", line2: null } },
      });
      const to = part!.data.view.rows.find((r) => r.key === "address-to");
      expect(to?.value).toContain("Anna Petrova");
      expect((await anna.cancel(part!.data.id)).status).toBe(200);
    }

    it("the address in the message after our question", async () => {
      const chat = await anna.newChat();
      const asked = await anna.say(chat, t.request);
      expect(toolCalls(asked.message)).toEqual([]);
      await expectCard(await anna.say(chat, t.address));
    });

    it("the address after another question in between", async () => {
      const chat = await anna.newChat();
      await anna.say(chat, t.request);
      const between = await anna.say(chat, t.between);
      expect(between.text).toContain("8041");
      await expectCard(await anna.say(chat, t.address));
    });

    it("after a status question about the order, the request names no order", async () => {
      const chat = await anna.newChat();
      await anna.say(chat, t.status);
      await expectCard(await anna.say(chat, t.after));
    });

    it("a country we don't ship to: refused by name with where we ship, no tool called", async () => {
      const chat = await anna.newChat();
      const turn = await anna.say(chat, t.abroad);
      expect(toolCalls(turn.message)).toEqual([]);
      expect(turn.text).toMatch(t.refused);
    });

    it("a delivered order: the policy says no, and no card", async () => {
      const chat = await anna.newChat();
      const turn = await anna.say(chat, t.delivered);
      expect(pendingActionPart(turn.message)).toBeUndefined();
      expect(turn.text).toMatch(t.deliveredReply);
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
