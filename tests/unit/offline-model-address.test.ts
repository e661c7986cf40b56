/**
 * The offline model on changing a delivery address, in the real AI SDK loop with the real tools
 * and a seeded store (the demo store's own engine): whether an order's address can still be
 * changed, by its status; one order at a time; the policy's refusals as the customer reads them;
 * a country we don't ship to refused by name, also when the order number comes after it; an
 * address the order already has; and what the rows read as an address and what they do not.
 * English and Russian.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { confirmAction } from "@/lib/actions";
import { rowsOf } from "@/lib/ai/models/offline/tool-rows";
import { parseAddress } from "@/lib/tools/change-delivery-address/offline";
import { type Core, newChat, orderRow, setupCore } from "../integration/action-core/fixtures";
import { answerAfterCall, Chat, expectReplies } from "./offline-model-harness";

let core: Core;
beforeAll(async () => {
  core = await setupCore();
});

const annaChat = async () =>
  new Chat({ userId: core.anna, chatId: await newChat(core.db, core.anna) });
const say = async (text: string) => (await annaChat()).say(text);

const replies = rowsOf("change_delivery_address")!.rows.replies;

describe("can the address still be changed?", () => {
  it("says it by the order's status, after looking the order up", async () => {
    const cases = [
      [
        "Can I still change the delivery address of order 8041?",
        "It has already shipped, so its delivery address can't be changed any more.",
      ],
      [
        "Can I change the delivery address of order 7718?",
        "It has already been delivered, so its address can't be changed.",
      ],
      [
        "Можно ли ещё изменить адрес доставки заказа 8041?",
        "Он уже отправлен, поэтому сменить адрес доставки нельзя.",
      ],
      [
        "Можно изменить адрес доставки заказа 7718?",
        "Он уже доставлен, поэтому сменить адрес нельзя.",
      ],
    ] as const;
    for (const [text, expected] of cases) {
      const turn = await say(text);
      expect(turn.calls, text).toEqual([
        { toolName: "get_order_status", input: { orderId: text.match(/\d{4}/)![0] } },
      ]);
      expect(turn.proposed).toBe(false);
      expect(turn.text, text).toContain(expected);
    }
  });

  it("a shipped order reads as one in transit; another status adds nothing", () => {
    for (const lang of ["en", "ru"] as const) {
      const possible = (status: string) => replies[lang].possible({ orderId: "2255", status });
      expect(possible("shipped")).toBe(possible("in_transit"));
      expect(possible("cancelled")).toBe("");
      expect(possible("lost_in_space")).toBe("");
    }
    expect(replies.en.possible({ orderId: "3004", status: "processing" })).toBe(
      `It hasn't shipped yet, so its delivery address can still be changed: tell me "change the delivery address of 3004 to" and the new address, and confirm on the card.`,
    );
  });
});

describe("requests", () => {
  it("several orders named: one at a time, nothing proposed", async () => {
    const en = await say(
      "Please change the delivery address of orders 3004 and 8041 to Torstraße 1, 10119 Berlin, Germany",
    );
    expect(en.calls).toEqual([]);
    expect(en.text).toBe(
      "Which order should get the new address: 3004 or 8041? I can change one at a time.",
    );
    const ru = await say(
      "Смените адрес доставки заказов 3004 и 8041 на Torstraße 1, 10119 Berlin, Германия",
    );
    expect(ru.calls).toEqual([]);
    expect(ru.text).toBe("Для какого заказа сменить адрес: 3004 или 8041? Я меняю по одному.");
  });

  it("the card it proposed: check the old and the new address, then confirm", async () => {
    const ctx = { userId: core.anna, chatId: await newChat(core.db, core.anna) };
    const input = {
      orderId: "3004",
      address: { ...parseAddress("Torstraße 1, 10119 Berlin, Germany")!, name: "Anna Petrova" },
    };
    const en = await answerAfterCall(
      ctx,
      "Change the delivery address of 3004 to Torstraße 1, 10119 Berlin, Germany",
      "change_delivery_address",
      input,
    );
    expect(en.outcome.kind).toBe("proposal");
    expect(en.text).toBe(
      "I've prepared the new delivery address for order 3004. Please check the old and the new address on the card and press Confirm if they are right; nothing happens until you do.",
    );
    const ru = await answerAfterCall(
      ctx,
      "Смените адрес доставки заказа 3004 на Torstraße 1, 10119 Berlin, Германия",
      "change_delivery_address",
      input,
    );
    expect(ru.text).toBe(
      "Я подготовил новый адрес доставки заказа 3004. Проверьте старый и новый адрес на карточке и нажмите «Подтвердить», если всё верно; до этого ничего не произойдёт.",
    );
    expect(replies.en.proposed(null)).toMatch(/^I've prepared the new delivery address\. Please/);
    expect(replies.ru.proposed(null)).toMatch(/^Я подготовил новый адрес доставки\. Проверьте/);
  });

  it("the policy's refusals, in the customer's words", async () => {
    const to = "Torstraße 1, 10119 Berlin, Germany";
    const cases = [
      [
        `Change the delivery address of order 8041 to ${to}`,
        "Order 8041 has already shipped, so its delivery address can't be changed any more.",
      ],
      [
        `Change the delivery address of order 7718 to ${to}`,
        "Order 7718 has already been delivered, so its address can't be changed.",
      ],
      [
        `Change the delivery address of order 6390 to ${to}`,
        "Order 6390 is cancelled, so there is nothing to deliver.",
      ],
      [
        "Change the delivery address of order 3004 to Torstraße 1, 1011 Berlin, Germany",
        "That postal code doesn't look right for that country. Could you check it and send me the address again?",
      ],
      [
        "Change the delivery address of order 3004 to Hauptstraße 12, 10115 Berlin, Germany",
        "Order 3004 is already going to that address.",
      ],
      [
        "Смените адрес доставки заказа 8041 на Torstraße 1, 10119 Berlin, Германия",
        "Заказ 8041 уже отправлен, поэтому сменить адрес доставки нельзя.",
      ],
      [
        "Смените адрес доставки заказа 7718 на Torstraße 1, 10119 Berlin, Германия",
        "Заказ 7718 уже доставлен, поэтому сменить адрес нельзя.",
      ],
      [
        "Смените адрес доставки заказа 6390 на Torstraße 1, 10119 Berlin, Германия",
        "Заказ 6390 отменён, доставлять нечего.",
      ],
      [
        "Смените адрес доставки заказа 3004 на Torstraße 1, 1011 Berlin, Германия",
        "Индекс не похож на индекс этой страны. Проверьте его, пожалуйста, и пришлите адрес ещё раз.",
      ],
      [
        "Смените адрес доставки заказа 3004 на Hauptstraße 12, 10115 Berlin, Германия",
        "Заказ 3004 уже доставляется по этому адресу.",
      ],
    ] as const;
    await expectReplies(say, "change_delivery_address", cases);
    expect((await orderRow(core.db, "3004")).status).toBe("processing");
  });

  it("refusals the model's own reading never reaches still have the customer's words", () => {
    expect(replies.en.errors.country_not_shipped!("order 3004", "Order 3004")).toBe(
      "Sorry, we don't ship to that country. We deliver to Germany, Austria, Belgium, the Netherlands, France, Spain, Italy and Poland.",
    );
    expect(replies.en.errors.recipient_missing!("order 3004", "Order 3004")).toBe(
      "Order 3004 has no recipient on record yet: please send the new address with the recipient's name first.",
    );
    expect(replies.ru.errors.country_not_shipped!("заказ 3004", "Заказ 3004")).toMatch(
      /^Извините, в эту страну мы не доставляем\. Мы доставляем в Германию, .* и Польшу\.$/,
    );
    expect(replies.ru.errors.recipient_missing!("заказ 3004", "Заказ 3004")).toBe(
      "Для заказа 3004 ещё не указан получатель: пришлите, пожалуйста, новый адрес с именем получателя в начале.",
    );
  });

  it("an address the order already got from a change: that change, nothing proposed", async () => {
    const to = "Anna Petrova, Torstraße 1, 10119 Berlin, Germany";
    const first = await say(`Please change the delivery address of order 3004 to ${to}`);
    expect(first.proposed).toBe(true);
    const actionId = (first.outputs[0] as { actionId: string }).actionId;
    const done = await confirmAction({ actionId, userId: core.anna });
    const changeId = (done.result as unknown as { changeId: string }).changeId;

    const en = await say(`Please change the delivery address of order 3004 to ${to}`);
    expect(en.proposed).toBe(false);
    expect(en.text).toBe(
      `Order 3004 is already going to Anna Petrova, Torstraße 1, 10119 Berlin, DE (${changeId}), so there is nothing to change.`,
    );
    const ru = await say(
      "Смените адрес доставки заказа 3004 на Anna Petrova, Torstraße 1, 10119 Berlin, Германия",
    );
    expect(ru.text).toBe(
      `Заказ 3004 уже доставляется по адресу Anna Petrova, Torstraße 1, 10119 Berlin, DE (${changeId}), менять нечего.`,
    );
  });

  it("a change result it cannot read is no reply", () => {
    const to = {
      name: "Anna Petrova",
      line1: "Torstraße 1",
      line2: null,
      postalCode: "10119",
      city: "Berlin",
      country: "DE",
    };
    const ok = { changeId: "CH-1", orderId: "3004", to };
    expect(replies.en.existing(ok)).toContain("Order 3004 is already going to");
    for (const lang of ["en", "ru"] as const) {
      for (const result of [
        null,
        undefined,
        "CH-1",
        42,
        { ...ok, changeId: 1 },
        { ...ok, orderId: 3004 },
        { ...ok, to: { ...to, city: undefined } },
        { changeId: "CH-1", orderId: "3004" },
      ])
        expect(replies[lang].existing(result), JSON.stringify(result)).toBeNull();
    }
  });
});

describe("countries we don't ship to", () => {
  it("a country after the city is refused by name; a lone word is not taken for one", async () => {
    const uk = await say("Change the delivery address of order 3004 to London, UK");
    expect(uk.calls).toEqual([]);
    expect(uk.text).toMatch(/^Sorry, I can't: we don't ship to the United Kingdom\./);

    // "NY" is a state, not a country code: the customer is asked for the whole address.
    const ny = await say("Change the delivery address of order 3004 to NY");
    expect(ny.calls).toEqual([]);
    expect(ny.text).toBe(
      "What is the new delivery address for order 3004? Please send it as: street and number, postal code and city, country. Put the recipient's name first only if it changes.",
    );
  });

  it("refused again when the order number comes after the refused country", async () => {
    const chat = await annaChat();
    const first = await chat.say("Please change my delivery address to London, UK");
    expect(first.text).toMatch(/^Sorry, I can't: we don't ship to the United Kingdom\./);
    const second = await chat.say("3004");
    expect(second.calls).toEqual([]);
    expect(second.text).toMatch(/^Sorry, I can't: we don't ship to the United Kingdom\./);
  });
});

describe("reading an address", () => {
  const berlin = (over: Record<string, string | null> = {}) => ({
    name: null,
    line1: "Torstraße 1",
    line2: null,
    postalCode: "10119",
    city: "Berlin",
    country: "DE",
    ...over,
  });

  it.each([
    // An empty part (a stray comma) is no part: not a name, not a missing country.
    [", Torstraße 1, 10119 Berlin, Germany", berlin()],
    ["Torstraße 1, 10119 Berlin, Germany,", berlin()],
    ["Torstraße 1, . , 10119 Berlin, Germany", berlin()],
    // Punctuation after any part is not the part's.
    ["Torstraße 1, 10119 Berlin..., Germany", berlin()],
    ["Torstraße 1, 10119 Berlin, Germany?? thanks", berlin()],
    // One line without a number is the street (a farm, a square), not a name.
    ["Hofgut Sonnenberg, 10119 Berlin, Germany", berlin({ line1: "Hofgut Sonnenberg" })],
  ])("%s", (text, expected) => {
    expect(parseAddress(text)).toEqual(expected);
  });

  it.each([
    ["nothing", ""],
    ["only punctuation", " ,;. "],
    ["a country alone", "Germany"],
    ["a city and a country", "10119 Berlin, Germany"],
  ])("%s: none", (_name, text) => {
    expect(parseAddress(text)).toBeNull();
  });

  it("an address without its country: the question names what is missing, and no name is asked for", async () => {
    const turn = await say(
      "Change the delivery address of order 3004 to Torstraße 1, 10119 Berlin",
    );
    expect(turn.calls).toEqual([]);
    expect(turn.text).toBe(
      "Could you send the new address for order 3004 again, in full? It is missing: the country. Please write it as: street and number, postal code and city, country.",
    );
    const ru = await say("Смените адрес доставки заказа 3004 на Torstraße 1, Berlin");
    expect(ru.calls).toEqual([]);
    expect(ru.text).toBe(
      "Пришлёте новый адрес для заказа 3004 ещё раз, целиком? В нём не хватает: индекс и город; страна. Напишите его так: улица и дом, индекс и город, страна.",
    );
  });

  it("a request that stops at 'to' asks for the address", async () => {
    const turn = await say("Please change the delivery address of order 3004 to");
    expect(turn.calls).toEqual([]);
    expect(turn.text).toBe(
      "What is the new delivery address for order 3004? Please send it as: street and number, postal code and city, country. Put the recipient's name first only if it changes.",
    );
  });
});
