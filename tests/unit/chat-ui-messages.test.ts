import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { collectOutcomes, findOpenAction, toolNote } from "@/lib/chat-client/messages";
import { proposal } from "./chat-ui-fixtures";

type Part = UIMessage["parts"][number];
const assistant = (id: string, parts: unknown[]): UIMessage => ({
  id,
  role: "assistant",
  parts: parts as Part[],
});
const card = (a = proposal()) => ({ type: "data-pending-action", id: a.id, data: a });

describe("which proposal blocks the composer", () => {
  it("is the stored-pending one not yet decided in this page", () => {
    const msgs = [assistant("a1", [{ type: "text", text: "Please confirm" }, card()])];
    expect(findOpenAction(msgs, null, new Set())?.id).toBe("act_1");
    expect(findOpenAction(msgs, null, new Set(["act_1"]))).toBeNull();
  });

  it("ignores decided cards and malformed data parts", () => {
    const msgs = [
      assistant("a1", [card(proposal({ status: "cancelled" }))]),
      assistant("a2", [{ type: "data-pending-action", data: { id: "x", plan: "nonsense" } }]),
    ];
    expect(findOpenAction(msgs, null, new Set())).toBeNull();
  });

  it("counts the server's pendingAction even when no message carries it", () => {
    const pending = proposal({ id: "act_2" });
    expect(findOpenAction([], pending, new Set())?.id).toBe("act_2");
  });

  it("collects appended outcomes with their request ids", () => {
    const msgs = [
      assistant("a1", [
        {
          type: "data-action-outcome",
          id: "outcome-act_1",
          data: {
            actionId: "act_1",
            status: "executed",
            result: { requestId: "rr_1", createdNow: true },
          },
        },
        { type: "text", text: "Your return request was created." },
      ]),
    ];
    expect(collectOutcomes(msgs).get("act_1")?.result?.requestId).toBe("rr_1");
  });
});

describe("tool activity notes", () => {
  const part = (type: string, state: string, input: unknown) =>
    ({ type, toolCallId: "c1", state, input, output: {} }) as unknown as Part;

  it("says quietly what was looked at", () => {
    expect(
      toolNote(part("tool-get_order_status", "output-available", { orderId: "8041" })),
    ).toEqual({
      text: "Checked order 8041",
      failed: false,
      running: false,
    });
    expect(
      toolNote(part("tool-get_order_status", "input-available", { orderId: "8041" }))?.text,
    ).toBe("Checking order 8041…");
    expect(toolNote(part("tool-get_return_policy", "output-available", {}))?.text).toBe(
      "Looked up the return policy",
    );
    expect(
      toolNote(part("tool-get_order_status", "output-error", { orderId: "8041" })),
    ).toMatchObject({
      text: "Could not check order 8041",
      failed: true,
    });
  });

  it("never echoes a made-up order id or an unknown tool", () => {
    expect(
      toolNote(part("tool-get_order_status", "output-available", { orderId: "<script>" }))?.text,
    ).toBe("Checked an order");
    expect(toolNote(part("tool-delete_everything", "output-error", {}))).toBeNull();
    expect(toolNote({ type: "text", text: "hi" })).toBeNull();
  });
});
