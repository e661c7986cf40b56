/**
 * The assistant's help is built from the tool registry, not written out: every registered tool's
 * own line and a person to talk to, in both languages. A fourth write tool registered beside the
 * others is in the help with no edit outside its own definition, and the offline model's answer to
 * "what can you do?" carries every registered tool's line.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { whatICanDo } from "@/lib/ai/models/offline/help";
import { cancelOrder } from "@/lib/tools/cancel-order";
import { createRegistry, TOOLS } from "@/lib/tools/registry";
import type { WriteTool } from "@/lib/tools/types";
import { type Core, newChat, setupCore } from "../integration/action-core/fixtures";
import { Chat } from "./offline-model-harness";

// A fourth write tool, whole: cancel_order's behaviour under a name and a help line of its own.
const giftWrap: WriteTool = {
  ...(cancelOrder as unknown as WriteTool),
  name: "gift_wrap_order",
  help: { en: "gift-wrap an order that hasn't shipped", ru: "упаковать заказ в подарочную бумагу" },
};

describe("the help, from the registry", () => {
  it("lists a fourth registered tool, in both languages, beside the person", () => {
    const registry = createRegistry([...TOOLS, giftWrap]);
    for (const lang of ["en", "ru"] as const) {
      const help = whatICanDo(lang, [...registry.values()]);
      expect(help).toContain(giftWrap.help[lang]);
      for (const t of TOOLS) expect(help).toContain(t.help[lang]);
      expect(help).toMatch(
        lang === "en" ? /or put you through to a person$/ : /или позвать оператора$/,
      );
    }
    // Without it registered, it is not offered.
    expect(whatICanDo("en")).not.toContain(giftWrap.help.en);
  });

  describe("what the offline model answers", () => {
    let core: Core;
    beforeAll(async () => {
      core = await setupCore();
    });

    const ASKS = [
      ["en", "what can you do?"],
      ["ru", "Что ты умеешь?"],
      ["en", "asdfgh"],
    ] as const;
    it.each(ASKS)("%s %s: every registered tool's line and the person", async (lang, text) => {
      const chat = new Chat({ userId: core.anna, chatId: await newChat(core.db, core.anna) });
      const turn = await chat.say(text);
      expect(turn.calls).toEqual([]);
      for (const t of TOOLS) expect(turn.text).toContain(t.help[lang]);
      expect(turn.text).toContain(
        lang === "en" ? "put you through to a person" : "позвать оператора",
      );
    });
  });
});
