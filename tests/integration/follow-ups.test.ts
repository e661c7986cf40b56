/**
 * Two conversational shapes through the real route handlers and the offline model: a follow-up
 * that leans on the order of the turn before, and two requests in one message (the read is
 * answered and the write proposed in the same turn). English and Russian.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { Customer } from "../helpers/chat";
import { useTestDatabase } from "../helpers/db";
import { auditStatuses } from "../helpers/inspect";
import { pendingActionPart, toolCalls } from "../helpers/stream";

const CASES = {
  en: {
    ask: "Was 7718 delivered?",
    followUp: "Then please take it back, it doesn't work",
    both: "What's the status of 3004? Also I'd like to return 7718, it's defective",
  },
  ru: {
    ask: "Доставлен ли заказ 7718?",
    followUp: "Тогда верните его, он не работает",
    both: "Какой статус у заказа 3004? И ещё хочу вернуть 7718, он бракованный",
  },
} as const;

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
  });
}
