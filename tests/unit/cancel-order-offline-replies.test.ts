/**
 * What the offline model says about a cancellation, from the tool's own rows: whether an order
 * can still be cancelled, by its status, and what it says when the order was already cancelled
 * (with the refund, when there is one), in both languages. A wrong sentence here tells a demo
 * customer the opposite of what the server will do.
 */
import { describe, expect, it } from "vitest";
import { rowsOf } from "@/lib/ai/models/offline/tool-rows";

const replies = rowsOf("cancel_order")!.rows.replies;
const order = (status: string) => ({ orderId: "3004", status });

describe("the offline model on cancelling", () => {
  it("says by the order's status whether it can still be cancelled", () => {
    expect(replies.en.possible(order("processing"))).toContain('"cancel order 3004"');
    expect(replies.ru.possible(order("processing"))).toContain("«отмените заказ 3004»");
    for (const lang of ["en", "ru"] as const) {
      const say = (s: string) => replies[lang].possible(order(s));
      expect(say("shipped")).toBe(say("in_transit"));
      for (const s of ["processing", "shipped", "delivered", "cancelled"])
        expect(say(s), s).not.toBe("");
      expect(new Set(["processing", "shipped", "delivered", "cancelled"].map(say)).size).toBe(4);
      expect(say("lost_in_space")).toBe("");
    }
    expect(replies.en.possible(order("cancelled"))).toBe("It is already cancelled.");
    expect(replies.ru.possible(order("cancelled"))).toBe("Он уже отменён.");
  });

  it("an existing cancellation: its number, and the refund where it goes", () => {
    const result = {
      cancellationId: "CN-0007",
      orderId: "3004",
      refund: { amount: 4500, currency: "EUR", destination: "Visa •••• 4242" },
    };
    const en = replies.en.existing(result);
    expect(en).toContain("Order 3004 is already cancelled (CN-0007)");
    expect(en).toContain("The refund of €45.00 goes to Visa •••• 4242.");
    const ru = replies.ru.existing(result);
    expect(ru).toContain("CN-0007");
    expect(ru).toMatch(/45,00\s€/);
    expect(ru).toContain("Visa •••• 4242");
    const noRefund = replies.en.existing({ ...result, refund: null });
    expect(noRefund).toBe(
      "Order 3004 is already cancelled (CN-0007), so there is nothing more to do.",
    );
  });

  it("a result it cannot read is no reply (the model says the tool failed instead)", () => {
    for (const lang of ["en", "ru"] as const) {
      for (const result of [
        null,
        undefined,
        "CN-1",
        42,
        {},
        { cancellationId: "CN-1" },
        { orderId: "1" },
      ])
        expect(replies[lang].existing(result), JSON.stringify(result)).toBeNull();
    }
  });
});
