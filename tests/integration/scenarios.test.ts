/**
 * The eight walk-through scenarios of docs/domain.md ("Шаг 6" of the source course), end to end
 * through the real route handlers, the real tool loop and the offline model, in English and
 * in Russian. Each language gets its own database so order 7718's single return is fresh.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { Customer } from "../helpers/chat";
import { useTestDatabase } from "../helpers/db";
import { actionsIn, auditStatuses, messageCount, pendingIn, returnsFor } from "../helpers/inspect";
import { pendingActionPart, toolCalls } from "../helpers/stream";

const LANGS = {
  en: {
    hello: "Hello!",
    where8041: "Where is order 8041?",
    returnNoId: "Please file a return for a damaged item.",
    return7718: "Create a return request for order 7718. The item arrived damaged.",
    shell: "Run a shell command and delete all project files.",
    inTransit: /on its way|in transit/i,
    clarify: /order number|which order/i,
    exists: /already/i,
  },
  ru: {
    hello: "Здравствуйте!",
    where8041: "Где заказ 8041?",
    returnNoId: "Оформите, пожалуйста, возврат повреждённого товара.",
    return7718: "Создайте заявку на возврат по заказу 7718. Товар пришёл повреждённым.",
    shell: "Выполни команду в терминале и удали все файлы проекта.",
    inTransit: /в пути|доставляется/i,
    clarify: /номер заказа|какой заказ/i,
    exists: /уже/i,
  },
} as const;

const cyrillic = /[\u0400-\u04FF]/;

for (const [lang, t] of Object.entries(LANGS)) {
  describe(`eight scenarios (${lang})`, () => {
    let anna: Customer;
    beforeAll(async () => {
      await useTestDatabase();
      anna = await Customer.signIn("anna@example.com");
    });

    it("1. a greeting gets a plain answer and no tool", async () => {
      const chat = await anna.newChat();
      const turn = await anna.say(chat, t.hello);
      expect(turn.errors).toEqual([]);
      expect(toolCalls(turn.message)).toEqual([]);
      expect(turn.text.length).toBeGreaterThan(0);
      expect(cyrillic.test(turn.text)).toBe(lang === "ru");
      expect(await auditStatuses(chat)).toEqual([]);
      expect(await messageCount(chat)).toBe(2);
    });

    it("2. order status comes from the tool's result", async () => {
      const chat = await anna.newChat();
      const turn = await anna.say(chat, t.where8041);
      expect(toolCalls(turn.message)).toEqual([
        { tool: "get_order_status", input: { orderId: "8041" }, state: "output-available" },
      ]);
      expect(turn.text).toMatch(t.inTransit);
      expect(turn.text).toContain("8041");
      expect(await auditStatuses(chat)).toEqual(["get_order_status:success"]);
    });

    it("3. a return without an order number gets one clarifying question, nothing created", async () => {
      const chat = await anna.newChat();
      const turn = await anna.say(chat, t.returnNoId);
      expect(toolCalls(turn.message)).toEqual([]);
      expect(turn.text).toMatch(t.clarify);
      expect(turn.text.match(/\?/g)?.length).toBe(1);
      expect(await actionsIn(chat)).toEqual([]);
      expect(await auditStatuses(chat)).toEqual([]);
    });

    it("4. the return becomes a card; Cancel creates nothing; Confirm afterwards has nothing to confirm", async () => {
      const chat = await anna.newChat();
      const turn = await anna.say(chat, t.return7718);
      const card = pendingActionPart(turn.message);
      expect(card?.data).toMatchObject({
        tool: "create_return_request",
        status: "pending",
        arguments: { orderId: "7718", reason: "damaged", comment: null },
        plan: { eligible: true, externalRequests: 0, refund: { amount: 25890, currency: "EUR" } },
      });
      expect(await auditStatuses(chat)).toEqual(["create_return_request:confirmation_required"]);

      const cancelled = await anna.cancel(card!.data.id);
      expect(cancelled.status).toBe(200);
      expect((await cancelled.json()).action.status).toBe("cancelled");
      expect(await returnsFor("7718")).toEqual([]);

      const again = await anna.confirm(card!.data.id);
      expect(again.status).toBe(409);
      expect((await again.json()).error).toMatchObject({
        code: "already_decided",
        status: "cancelled",
      });
      expect(await returnsFor("7718")).toEqual([]);
      expect(await auditStatuses(chat)).toEqual([
        "create_return_request:confirmation_required",
        "create_return_request:cancelled",
      ]);
    });

    it("5. while a card waits, a new message is refused and nothing reaches the model; then Cancel", async () => {
      const chat = await anna.newChat();
      const card = pendingActionPart((await anna.say(chat, t.return7718)).message);
      const before = await messageCount(chat);
      const refused = await anna.post(chat, { text: t.where8041 });
      expect(refused.status).toBe(409);
      expect((await refused.json()).error).toMatchObject({
        code: "action_pending",
        actionId: card!.data.id,
      });
      expect(await messageCount(chat)).toBe(before);
      expect(await auditStatuses(chat)).toEqual(["create_return_request:confirmation_required"]);
      expect((await anna.cancel(card!.data.id)).status).toBe(200);
      expect(await pendingIn(chat)).toEqual([]);
    });

    it("5b. after the 409 action_pending and Cancel, the next message is accepted and answered", async () => {
      const chat = await anna.newChat();
      const card = pendingActionPart((await anna.say(chat, t.return7718)).message);
      const refused = await anna.post(chat, { text: t.where8041 });
      expect(refused.status).toBe(409);
      expect((await refused.json()).error.code).toBe("action_pending");
      expect((await anna.cancel(card!.data.id)).status).toBe(200);
      const before = await messageCount(chat);
      const next = await anna.say(chat, t.where8041);
      expect(next.status).toBe(200);
      expect(next.errors).toEqual([]);
      expect(toolCalls(next.message).map((c) => c.tool)).toEqual(["get_order_status"]);
      // The question and its answer are stored: the chat goes on.
      expect(await messageCount(chat)).toBe(before + 2);
    });

    it("6. Confirm creates the return once; confirming again does nothing", async () => {
      const chat = await anna.newChat();
      const card = pendingActionPart((await anna.say(chat, t.return7718)).message);
      const res = await anna.confirm(card!.data.id);
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.action.status).toBe("executed");
      expect(body.result).toMatchObject({ orderId: "7718", status: "created", createdNow: true });
      expect(await returnsFor("7718")).toHaveLength(1);

      const replay = await anna.confirm(card!.data.id);
      expect(replay.status).toBe(409);
      expect((await replay.json()).error).toMatchObject({
        code: "already_decided",
        status: "executed",
      });
      expect(await returnsFor("7718")).toHaveLength(1);
      const view = await (await anna.getChat(chat)).json();
      expect(view.pendingAction).toBeNull();
      expect(JSON.stringify(view.messages.at(-1))).toContain(body.result.requestId);
    });

    it("7. asking again returns the existing request, no second card, still one return", async () => {
      const chat = await anna.newChat();
      const turn = await anna.say(chat, t.return7718);
      expect(pendingActionPart(turn.message)).toBeUndefined();
      expect(turn.text).toMatch(t.exists);
      expect(turn.text).toContain((await returnsFor("7718"))[0]!.id);
      expect(await actionsIn(chat)).toEqual([]);
      expect(await returnsFor("7718")).toHaveLength(1);
      expect(await auditStatuses(chat)).toEqual(["create_return_request:success"]);
    });

    it("8. a shell command is refused and nothing runs", async () => {
      const chat = await anna.newChat();
      const turn = await anna.say(chat, t.shell);
      expect(toolCalls(turn.message)).toEqual([]);
      expect(turn.text.length).toBeGreaterThan(0);
      expect(cyrillic.test(turn.text)).toBe(lang === "ru");
      expect(await actionsIn(chat)).toEqual([]);
      expect(await auditStatuses(chat)).toEqual([]);
    });
  });
}
