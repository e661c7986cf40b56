/**
 * The offline model on items, quantities and sizes, in English and Russian, through the real
 * loop and the real tools on the demo store: which lines a return names ("both", "all of it",
 * "just the socks", "two of the three", «только шапку»), which size an exchange goes to ("a size
 * bigger", «на размер больше», "to S"), and the policy's refusals answered in the customer's
 * language.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { type Core, newChat, setupCore } from "../integration/action-core/fixtures";
import { Chat, replyLanguage } from "./offline-model-harness";

let core: Core;
beforeAll(async () => {
  core = await setupCore();
});

const chat = async () => new Chat({ userId: core.anna, chatId: await newChat(core.db, core.anna) });

describe("returns: which items and how many", () => {
  const rows: [string, Record<string, unknown>][] = [
    ["Please return both items from 7718, they arrived damaged", { items: "all" }],
    ["Return all of it from order 4702, it arrived damaged", { items: "all" }],
    [
      "I want to return just the shoes from 4702, they are defective",
      { items: [{ line: "shoes" }] },
    ],
    [
      "Please return two of the two t-shirts from 4702, they arrived damaged",
      { items: [{ line: "t shirts", quantity: 2 }] },
    ],
    ["Верните только носки из заказа 4702, они бракованные", { items: [{ line: "socks" }] }],
    [
      "Хочу вернуть одну футболку из заказа 4702, она бракованная",
      { items: [{ line: "t-shirt", quantity: 1 }] },
    ],
    ["Верните обе вещи из заказа 7718, товар пришёл повреждённым", { items: "all" }],
  ];
  it.each(rows)("%s", async (text, items) => {
    const turn = await (await chat()).say(text);
    expect(turn.calls).toEqual([
      { toolName: "create_return_request", input: expect.objectContaining(items) },
    ]);
  });

  it("«только шапку» names the hat, and an order without one hears so in Russian", async () => {
    const turn = await (await chat()).say("Верните только шапку из заказа 4702, она бракованная");
    expect(turn.calls[0]?.input).toMatchObject({ items: [{ line: "hat" }] });
    expect(replyLanguage(turn.text)).toBe("ru");
    expect(turn.text).toMatch(/не нашёл такой товар/);
  });

  it("two of the three: with several items, the assistant asks which, nothing is proposed", async () => {
    const turn = await (await chat()).say(
      "I want to return two of the three from 4702, they arrived damaged",
    );
    expect(turn.calls[0]?.input).toMatchObject({ items: [{ quantity: 2 }] });
    expect(turn.text).toMatch(/several items: which would you like to return/);
  });

  it("the final-sale socks are refused with the reason, in the customer's language", async () => {
    const en = await (await chat()).say(
      "Please return just the socks from 4702, they are defective",
    );
    expect(en.text).toMatch(/final sale/);
    const ru = await (await chat()).say("Верните только носки из заказа 4702, они бракованные");
    expect(ru.text).toMatch(/финальная распродажа/);
  });
});

describe("exchanges: which size", () => {
  const rows: [string, Record<string, unknown>][] = [
    ["Please exchange the shoes from 4702 for a size bigger", { line: "shoes", to: "bigger" }],
    ["Can you change my order 4704 to size S before it ships?", { to: "S" }],
    ["I ordered the wrong size, please change 4704 to S", { to: "S" }],
    ["Обменяйте кроссовки из заказа 4702 на размер больше", { line: "shoes", to: "bigger" }],
    ["Поменяйте размер в заказе 4704 на S", { to: "S" }],
  ];
  it.each(rows)("%s", async (text, args) => {
    const turn = await (await chat()).say(text);
    expect(turn.calls).toEqual([
      {
        toolName: "exchange_items",
        input: expect.objectContaining({ orderId: expect.any(String), ...args }),
      },
    ]);
  });

  it("a dearer size is refused: we never charge in the chat (English and Russian)", async () => {
    const en = await (await chat()).say("Please exchange 4704 for a size bigger");
    expect(en.text).toMatch(/never charge you in the chat/);
    const ru = await (await chat()).say("Обменяйте футболку из заказа 4704 на размер больше");
    expect(ru.text).toMatch(/никогда не списываю деньги/);
  });

  it("no size named: one question for it", async () => {
    const turn = await (await chat()).say("Please exchange the shoes from 4702");
    expect(turn.calls).toEqual([]);
    expect(turn.text).toMatch(/Which size would you like instead/);
  });

  it("asking is not requesting: can I exchange?", async () => {
    const turn = await (await chat()).say("Can I exchange the shoes from 4702?");
    expect(turn.calls.some((c) => c.toolName === "exchange_items")).toBe(false);
  });
});
