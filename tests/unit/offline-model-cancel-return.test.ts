/**
 * What the offline model says about cancelling and returning, in both languages, from the tools'
 * own rows: one order at a time, the policy's refusals, the card it proposed (the model answering
 * the real executor's proposal), an existing return with and without its date and refund, the
 * offer after a complaint, how to ask for a return after the policy, and a cancellation's reason
 * given before its order number. Real AI SDK loop, real tools, a seeded store.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/lib/ai/models/offline/tool-rows";
import { type Core, newChat, setupCore } from "../integration/action-core/fixtures";
import { answerAfterCall, Chat, expectReplies } from "./offline-model-harness";

let core: Core;
beforeAll(async () => {
  core = await setupCore();
});

const annaChat = async () =>
  new Chat({ userId: core.anna, chatId: await newChat(core.db, core.anna) });
const say = async (text: string) => (await annaChat()).say(text);

const answerAfter = async (text: string, toolName: string, input: Record<string, unknown>) =>
  answerAfterCall(
    { userId: core.anna, chatId: await newChat(core.db, core.anna) },
    text,
    toolName,
    input,
  );

describe("cancelling", () => {
  it("several orders: one at a time", async () => {
    expect((await say("Please cancel orders 3004 and 8041")).text).toBe(
      "Which order should I cancel: 3004 or 8041? I can do one at a time.",
    );
    expect((await say("Отмените заказы 3004 и 8041")).text).toBe(
      "Какой заказ отменить: 3004 или 8041? Я оформляю по одному.",
    );
  });

  it("the policy's refusals, by the order's status", async () => {
    const cases = [
      [
        "Cancel order 7718 please",
        "Order 7718 has already been delivered, so it can't be cancelled, but it can be returned: tell me the reason and I'll prepare a return request for you to confirm.",
      ],
      [
        "Cancel order 5120 please",
        "Order 5120 has already been delivered, so it can't be cancelled, and its return window has ended. I'm sorry.",
      ],
      [
        "Отмените заказ 8041",
        "Заказ 8041 уже отправлен, поэтому отменить его нельзя. После доставки можно оформить возврат.",
      ],
      [
        "Отмените заказ 7718",
        "Заказ 7718 уже доставлен, поэтому отменить его нельзя, но можно вернуть: назовите причину, и я подготовлю заявку на возврат.",
      ],
      [
        "Отмените заказ 5120",
        "Заказ 5120 уже доставлен, поэтому отменить его нельзя, и срок возврата тоже истёк. Сожалею.",
      ],
    ] as const;
    await expectReplies(say, "cancel_order", cases);
  });

  it("an order cancelled before: that cancellation and its refund", async () => {
    expect((await say("Cancel order 6390 please")).text).toBe(
      "Order 6390 is already cancelled (CN-SEED6390), so there is nothing more to do. The refund of €399.00 goes to Visa •••• 4242.",
    );
    expect((await say("Отмените заказ 6390")).text).toMatch(
      /^Заказ 6390 уже отменён \(CN-SEED6390\), больше ничего делать не нужно\. Возврат 399,00\s€ поступит на Visa •••• 4242\.$/,
    );
  });

  it("a reason given before the order number is the cancellation's reason", async () => {
    const chat = await annaChat();
    const ask = await chat.say("Please cancel my order, I found it cheaper elsewhere");
    expect(ask.calls).toEqual([]);
    const answer = await chat.say("3004");
    expect(answer.calls).toEqual([
      {
        toolName: "cancel_order",
        input: { orderId: "3004", reason: "found_cheaper", comment: null },
      },
    ]);
    expect(answer.proposed).toBe(true);
  });

  it("the card it proposed: check and confirm, nothing happens before", async () => {
    const en = await answerAfter("Cancel order 3004", "cancel_order", {
      orderId: "3004",
      reason: "other",
      comment: null,
    });
    expect(en.outcome.kind).toBe("proposal");
    expect(en.text).toBe(
      "I've prepared the cancellation of order 3004. Please check the details on the card and press Confirm if they are right; nothing happens until you do.",
    );
    const ru = await answerAfter("Отмените заказ 3004", "cancel_order", {
      orderId: "3004",
      reason: "other",
      comment: null,
    });
    expect(ru.text).toBe(
      "Я подготовил отмену заказа 3004. Проверьте данные на карточке и нажмите «Подтвердить», если всё верно; до этого ничего не произойдёт.",
    );
  });

  it("the rows' sentences without an order, a missing slot, or a refund", () => {
    const { en, ru } = rowsOf("cancel_order")!.rows.replies;
    expect(en.proposed(null)).toBe(
      "I've prepared the cancellation. Please check the details on the card and press Confirm if they are right; nothing happens until you do.",
    );
    expect(ru.proposed(null)).toBe(
      "Я подготовил отмену. Проверьте данные на карточке и нажмите «Подтвердить», если всё верно; до этого ничего не произойдёт.",
    );
    expect(en.askMissing("reason", "3004")).toBe("What should I do with order 3004?");
    expect(ru.askMissing("reason", "3004")).toBe("Что сделать с заказом 3004?");
    // Cancelled without a cancellation of ours (by the shop): said without one.
    expect(en.errors.already_cancelled!("order 3004", "Order 3004")).toBe(
      "Order 3004 is already cancelled.",
    );
    expect(ru.errors.already_cancelled!("заказ 3004", "Заказ 3004")).toBe(
      "Заказ 3004 уже отменён.",
    );
    expect(ru.existing({ cancellationId: "CN-0007", orderId: "3004", refund: null })).toBe(
      "Заказ 3004 уже отменён (CN-0007), больше ничего делать не нужно.",
    );
  });
});

describe("returning", () => {
  it("several orders: one return at a time", async () => {
    expect((await say("Please return orders 7718 and 9307, they arrived damaged")).text).toBe(
      "Which order should I prepare the return for: 7718 or 9307? I can do one return at a time.",
    );
    expect((await say("Хочу вернуть заказы 7718 и 9307, они пришли разбитыми")).text).toBe(
      "Для какого заказа подготовить возврат: 7718 или 9307? Я оформляю по одному возврату за раз.",
    );
  });

  it("the policy's refusals, by the order's status, each starting with a capital", async () => {
    const cases = [
      [
        "Return order 8041 please, it's broken",
        "Order 8041 hasn't been delivered yet, so a return can't be requested for it yet.",
      ],
      [
        "Return order 6390 please, it's broken",
        "Order 6390 was cancelled, so there is nothing to return.",
      ],
      [
        "Please create a return for order 5120, the sheets are torn",
        "Order 5120 was delivered too long ago: it is outside the return window, so I can't request a return for it. I'm sorry.",
      ],
      [
        "Хочу вернуть заказ 8041, он сломан",
        "Заказ 8041 ещё не доставлен, поэтому оформить возврат пока нельзя.",
      ],
      [
        "Хочу вернуть заказ 5120, простыни порваны",
        "Заказ 5120 доставлен слишком давно: срок возврата истёк, поэтому оформить возврат нельзя. Сожалею.",
      ],
    ] as const;
    await expectReplies(say, "create_return_request", cases);
  });

  it("the card it proposed: check and confirm, nothing happens before", async () => {
    const input = { orderId: "7718", reason: "damaged", comment: null };
    const en = await answerAfter("Return 7718, it's broken", "create_return_request", input);
    expect(en.outcome.kind).toBe("proposal");
    expect(en.text).toBe(
      "I've prepared a return request for order 7718. Please check the details on the card and press Confirm if they are right; nothing happens until you do.",
    );
    const ru = await answerAfter("Верните 7718, он сломан", "create_return_request", input);
    expect(ru.text).toBe(
      "Я подготовил заявку на возврат заказа 7718. Проверьте данные на карточке и нажмите «Подтвердить», если всё верно; до этого ничего не произойдёт.",
    );
    const { en: rowsEn, ru: rowsRu } = rowsOf("create_return_request")!.rows.replies;
    expect(rowsEn.proposed(null)).toMatch(/^I've prepared a return request\. Please check/);
    expect(rowsRu.proposed(null)).toMatch(/^Я подготовил заявку на возврат\. Проверьте/);
  });

  it("an existing return: its number, its date and its refund when known", () => {
    const { en, ru } = rowsOf("create_return_request")!.rows.replies;
    const bare = { requestId: "RR-7Q2M9K4X", orderId: "7718", createdNow: false };
    expect(en.existing(bare)).toBe(
      "Order 7718 already has a return request (RR-7Q2M9K4X), so I haven't created another one.",
    );
    expect(ru.existing(bare)).toBe(
      "По заказу 7718 уже есть заявка на возврат (RR-7Q2M9K4X), поэтому новую я не создавал.",
    );
    const full = {
      ...bare,
      createdAt: "2026-12-01T10:00:00.000Z",
      refund: { amount: 25890, currency: "EUR", destination: "Visa •••• 4242" },
    };
    expect(en.existing(full)).toBe(
      "Order 7718 already has a return request (RR-7Q2M9K4X, created on December 1), so I haven't created another one. The refund of €258.90 goes to Visa •••• 4242.",
    );
    expect(ru.existing(full)).toMatch(
      /^По заказу 7718 уже есть заявка на возврат \(RR-7Q2M9K4X от 1 декабря\), поэтому новую я не создавал\. Возврат 258,90\s€ поступит на Visa •••• 4242\.$/,
    );
  });

  it("asking whether a return is possible adds nothing of the rows: the policy's window says it", () => {
    const { en, ru } = rowsOf("create_return_request")!.rows.replies;
    for (const status of ["delivered", "processing"]) {
      expect(en.possible({ orderId: "7718", status })).toBe("");
      expect(ru.possible({ orderId: "7718", status })).toBe("");
    }
  });

  it("a complaint gets an offer naming the reason; the policy says how to ask", async () => {
    expect((await say("The teapot from order 9307 is the wrong colour")).text).toBe(
      "I'm sorry to hear that. Would you like me to prepare a return request for order 9307 (another reason)? You'll confirm it before anything happens.",
    );
    expect((await say("Чайник из заказа 9307 не того цвета")).text).toBe(
      "Очень жаль. Подготовить заявку на возврат заказа 9307 (другая причина)? Вы подтвердите её, прежде чем что-то произойдёт.",
    );

    const en = await say("What is your return policy?");
    expect(en.calls.map((c) => c.toolName)).toEqual(["get_return_policy"]);
    expect(en.text).toContain(
      "If you'd like to return something, tell me the order number and the reason, and I'll prepare a request for you to confirm.",
    );
    const ru = await say("Какие у вас условия возврата?");
    expect(ru.calls.map((c) => c.toolName)).toEqual(["get_return_policy"]);
    expect(ru.text).toContain(
      "Если хотите что-то вернуть, назовите номер заказа и причину, и я подготовлю заявку, которую вы подтвердите.",
    );
    const ru7718 = await say("Можно вернуть кофемашину из заказа 7718?");
    expect(ru7718.text).toContain(
      "Если хотите его вернуть, назовите причину, и я подготовлю заявку на возврат заказа 7718, которую вы подтвердите.",
    );
  });

  it("an order without what is wrong: asks for the reason", async () => {
    expect((await say("I want to return order 7718")).text).toBe(
      "What is the reason for returning order 7718: did it arrive damaged, is it defective, or is it something else?",
    );
    expect((await say("Хочу вернуть заказ 7718")).text).toBe(
      "Какова причина возврата заказа 7718: товар пришёл повреждённым, это брак или другая причина?",
    );
  });
});
