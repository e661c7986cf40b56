/**
 * Which settled effect gets a fresh plan (lib/effects/replan.ts, replanAfter): only a write at
 * the connected store, refused because the order changed there, of an action whose tool is
 * known. Every other outcome (a success, another refusal, an effect that is not a store write,
 * an action with no tool) stores no follow-up. The follow-up's run is in replan.test.ts.
 */
import { describe, expect, it } from "vitest";
import { STORE_WRITE_KINDS } from "@/lib/effects/kinds";
import { replanAfter } from "@/lib/effects/replan";

type Settled = { id: string; kind: string; status: string; lastErrorCode: string | null };

const refused = (kind: string): Settled => ({
  id: `ef_${kind}`,
  kind,
  status: "failed",
  lastErrorCode: "order_changed_at_store",
});

describe("replanAfter", () => {
  it("a store write refused because the order changed there: one fresh plan by its tool", () => {
    for (const kind of STORE_WRITE_KINDS) {
      expect(replanAfter(refused(kind), "cancel_order")).toEqual([
        {
          kind: "action.replan",
          payload: {
            tool: "cancel_order",
            refusedEffectId: `ef_${kind}`,
            code: "order_changed_at_store",
          },
        },
      ]);
    }
  });

  it("nothing when any one condition is missing", () => {
    const base = refused("store.cancel_order");
    const cases: [Settled, string | null][] = [
      // No tool to plan with.
      [base, null],
      [base, ""],
      // Not a store write: a refund, the store's receive, a mail.
      [{ ...base, kind: "payment.refund" }, "cancel_order"],
      [{ ...base, kind: "store.receive_return" }, "create_return_request"],
      // Not refused: it went through, or still waits for a person.
      [{ ...base, status: "succeeded" }, "cancel_order"],
      [{ ...base, status: "needs_attention" }, "cancel_order"],
      // Refused for another reason.
      [{ ...base, lastErrorCode: "http_422" }, "cancel_order"],
      [{ ...base, lastErrorCode: null }, "cancel_order"],
    ];
    for (const [effect, tool] of cases) {
      expect(replanAfter(effect, tool), JSON.stringify([effect, tool])).toEqual([]);
    }
  });
});
