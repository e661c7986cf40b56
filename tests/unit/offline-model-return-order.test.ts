/**
 * Which order a return is for, and whether it can be, before anything else is asked: a return the
 * policy refuses (a cancelled order, one not delivered, one past its window) is refused at once,
 * by the same rule the return tool applies, never after the customer gave a reason; and a return
 * of items does not carry over to an earlier order that does not have them. Real AI SDK loop,
 * real tools and executor, a seeded store, in English and Russian.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { confirmAction } from "@/lib/actions";
import { executeToolCall } from "@/lib/actions/executor";
import { type Core, newChat, rowCounts, setupCore } from "../integration/action-core/fixtures";
import { Chat, type Turn } from "./offline-model-harness";

let core: Core;
beforeAll(async () => {
  core = await setupCore();
});

const chatOf = async (userId: string) =>
  new Chat({ userId, chatId: await newChat(core.db, userId) });

const lookupOnly = (turn: Turn, orderId: string) => {
  expect(turn.calls).toEqual([{ toolName: "get_order_status", input: { orderId } }]);
  expect(turn.proposed).toBe(false);
};

/** The return policy's word on an order, as the order's lookup gives it to the model. */
async function returnableOf(userId: string, orderId: string) {
  const outcome = await executeToolCall(
    "get_order_status",
    { orderId },
    { userId, chatId: await newChat(core.db, userId), toolCallId: `t-${orderId}` },
  );
  if (outcome.kind !== "result") throw new Error(`lookup of ${orderId}: ${outcome.kind}`);
  return (outcome.data as { returnable: unknown }).returnable;
}

describe("a return the policy refuses is refused at once, before any reason is asked", () => {
  it("order 1187, once cancelled: told at once it can't be returned, in English and Russian", async () => {
    // Boris cancels 1187 (processing): the card, then his confirm.
    const cancel = await (await chatOf(core.boris)).say(
      "Cancel order 1187, I ordered it by mistake",
    );
    expect(cancel.proposed).toBe(true);
    const actionId = (cancel.outputs[0] as { actionId: string }).actionId;
    expect((await confirmAction({ actionId, userId: core.boris })).action.status).toBe("executed");

    // The policy in code says why: the order's lookup carries the return tool's own refusal.
    expect(await returnableOf(core.boris, "1187")).toEqual({
      eligible: false,
      code: "order_cancelled",
    });
    const before = await rowCounts(core.db);
    for (const [text, reply] of [
      ["I want to return order 1187", "Order 1187 was cancelled, so there is nothing to return."],
      ["Return 1187 please", "Order 1187 was cancelled, so there is nothing to return."],
      ["Хочу вернуть заказ 1187", "Заказ 1187 отменён, поэтому возвращать нечего."],
      ["Оформите возврат заказа 1187", "Заказ 1187 отменён, поэтому возвращать нечего."],
    ] as const) {
      const turn = await (await chatOf(core.boris)).say(text);
      lookupOnly(turn, "1187");
      expect(turn.text, text).toBe(reply);
      expect(turn.text).not.toMatch(/reason|причин/i);
    }
    expect(await rowCounts(core.db)).toMatchObject({
      pendingActions: before.pendingActions,
      returnRequests: before.returnRequests,
    });
  });

  it("the other refusals of the policy, each in the return tool's words", async () => {
    const cases = [
      ["Return order 6390", "6390", "Order 6390 was cancelled, so there is nothing to return."],
      [
        "I'd like to return 8041",
        "8041",
        "Order 8041 hasn't been delivered yet, so a return can't be requested for it yet.",
      ],
      [
        "Return order 5120",
        "5120",
        "Order 5120 was delivered too long ago: it is outside the return window, so I can't request a return for it. I'm sorry.",
      ],
      [
        "Верните заказ 5120",
        "5120",
        "Заказ 5120 доставлен слишком давно: срок возврата истёк, поэтому оформить возврат нельзя. Сожалею.",
      ],
      [
        "Хочу вернуть заказ 8041",
        "8041",
        "Заказ 8041 ещё не доставлен, поэтому оформить возврат пока нельзя.",
      ],
    ] as const;
    for (const [text, orderId, reply] of cases) {
      const turn = await (await chatOf(core.anna)).say(text);
      lookupOnly(turn, orderId);
      expect(turn.text, text).toBe(reply);
      expect(turn.lastBehaviour).toBe("refuse");
    }
  });

  it("an order the policy allows: its reason is asked for, and the answer proposes", async () => {
    expect(await returnableOf(core.anna, "7718")).toMatchObject({ eligible: true });
    const chat = await chatOf(core.anna);
    const ask = await chat.say("Return order 7718");
    lookupOnly(ask, "7718");
    expect(ask.text).toBe(
      "What is the reason for returning order 7718: did it arrive damaged, is it defective, or is it something else?",
    );
    const answer = await chat.say("defective");
    expect(answer.proposed).toBe(true);
    expect(answer.calls).toEqual([
      {
        toolName: "create_return_request",
        input: { orderId: "7718", reason: "defective", comment: null },
      },
    ]);

    const ru = await (await chatOf(core.anna)).say("Хочу вернуть заказ 7718");
    lookupOnly(ru, "7718");
    expect(ru.text).toBe(
      "Какова причина возврата заказа 7718: товар пришёл повреждённым, это брак или другая причина?",
    );
  });

  it("an order that is not the customer's: the lookup's own answer, nothing proposed", async () => {
    const turn = await (await chatOf(core.anna)).say("Return order 4410");
    lookupOnly(turn, "4410");
    expect(turn.text).toBe(
      "I couldn't find order 4410 in your account. Could you check the number?",
    );
  });
});

describe("a return of items does not carry over to an earlier order that lacks them", () => {
  it("'Return 1 of the 2 bed sheets' after asking about 7718: never 7718's coffee machine", async () => {
    const chat = await chatOf(core.anna);
    await chat.say("Can I return order 7718?");
    const sheets = await chat.say("Return 1 of the 2 bed sheets");
    expect(sheets.calls).toEqual([]);
    expect(sheets.text).toBe(
      "Order 7718 doesn't have that item. Which order is it from? Please send me its four-digit number.",
    );
    // A reason alone still leaves 7718 out.
    const reason = await chat.say("defective");
    expect(reason.calls).toEqual([]);
    expect(reason.text).toContain("Which order is it from?");
    // The order that holds them: its return, of one sheet, which the policy refuses (past its window).
    const order = await chat.say("5120");
    expect(order.calls).toEqual([
      {
        toolName: "create_return_request",
        input: {
          orderId: "5120",
          items: [{ line: "bed sheets", quantity: 1 }],
          reason: "defective",
          comment: null,
        },
      },
    ]);
    expect(order.proposed).toBe(false);
    expect(order.text).toContain("Order 5120 was delivered too long ago");
  });

  it("in Russian: the sheets are not in 7718, so it asks which order", async () => {
    const chat = await chatOf(core.anna);
    await chat.say("Можно вернуть заказ 7718?");
    const sheets = await chat.say("Верните 1 из 2 простыней");
    expect(sheets.calls).toEqual([]);
    expect(sheets.text).toBe(
      "В заказе 7718 такого товара нет. Из какого он заказа? Пришлите, пожалуйста, его четырёхзначный номер.",
    );
    const reason = await chat.say("брак");
    expect(reason.calls).toEqual([]);
    expect(reason.text).not.toContain("7718 (");
  });

  it("an order looked up earlier that holds them is the one: its policy answers at once", async () => {
    const chat = await chatOf(core.anna);
    await chat.say("Can I return order 7718?");
    await chat.say("And can I return 5120?");
    const sheets = await chat.say("Return 1 of the 2 bed sheets");
    expect(sheets.calls).toEqual([]);
    expect(sheets.text).toBe(
      "Order 5120 was delivered too long ago: it is outside the return window, so I can't request a return for it. I'm sorry.",
    );
  });

  it("an item the earlier order has is still its return", async () => {
    const chat = await chatOf(core.anna);
    await chat.say("Can I return order 7718?");
    await chat.say("Return the coffee machine");
    const answer = await chat.say("defective");
    expect(answer.calls).toEqual([
      {
        toolName: "create_return_request",
        input: {
          orderId: "7718",
          items: [{ line: "coffee machine" }],
          reason: "defective",
          comment: null,
        },
      },
    ]);
    expect(answer.proposed).toBe(true);
  });
});
