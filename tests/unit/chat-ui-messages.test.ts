import type { UIMessage } from "ai";
import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import {
  collectOutcomes,
  findOpenAction,
  toolNote,
  toolNoteValues,
} from "@/lib/chat-client/messages";
import { messagesFor } from "@/lib/i18n/messages";
import { proposal } from "./chat-ui-fixtures";

// The catalogues as the app serves them: messages/*.json plus every tool's own texts.
const en = messagesFor("en");
const ru = messagesFor("ru");

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
  const part = (
    type: string,
    state: string,
    input: unknown,
    output: unknown = { ok: true, data: {} },
  ) => ({ type, toolCallId: "c1", state, input, output }) as unknown as Part;
  // The words are the catalogue's; ToolActivity picks running/failed/done the same way.
  const say = (p: Part, locale: "en" | "ru" = "en") => {
    const note = toolNote(p);
    if (!note) return null;
    const t = createTranslator({
      locale,
      messages: locale === "en" ? en : ru,
      namespace: "conversation.toolNote",
    });
    const v = toolNoteValues(note);
    return t(note.state, v);
  };

  it("says quietly what was looked at", () => {
    expect(
      toolNote(part("tool-get_order_status", "output-available", { orderId: "8041" })),
    ).toEqual({ tool: "get_order_status", orderId: "8041", state: "done" });
    expect(say(part("tool-get_order_status", "output-available", { orderId: "8041" }))).toBe(
      "Checked order 8041",
    );
    expect(say(part("tool-get_order_status", "input-available", { orderId: "8041" }))).toBe(
      "Checking order 8041…",
    );
    expect(say(part("tool-get_return_policy", "output-available", {}))).toBe(
      "Looked up the return policy",
    );
    expect(say(part("tool-get_order_status", "output-error", { orderId: "8041" }))).toBe(
      "Could not check order 8041",
    );
    expect(say(part("tool-get_order_status", "output-available", { orderId: "8041" }), "ru")).toBe(
      "Проверен заказ 8041",
    );
  });

  it("says what the call came to: a refusal is never 'prepared'", () => {
    const refused = {
      ok: false,
      error: { status: "business_error", code: "return_window_passed", message: "…" },
    };
    const ret = (output: unknown) =>
      part("tool-create_return_request", "output-available", { orderId: "5120" }, output);
    expect(say(ret(refused))).toBe("Checked order 5120: a return is not possible");
    expect(toolNote(ret(refused))?.state).toBe("refused");
    expect(say(ret(refused), "ru")).toBe("Проверен заказ 5120: возврат невозможен");
    expect(
      say(ret({ ok: true, status: "confirmation_required", actionId: "a1", message: "…" })),
    ).toBe("Prepared a return request for order 5120");
    expect(
      say(ret({ ok: false, error: { status: "timeout", code: "timeout", message: "…" } })),
    ).toBe("Could not prepare a return request for order 5120");
    expect(
      say(part("tool-cancel_order", "output-available", { orderId: "6390" }, refused), "ru"),
    ).toBe("Проверен заказ 6390: отменить его нельзя");
    expect(
      say(part("tool-get_order_status", "output-available", { orderId: "4410" }, refused)),
    ).toBe("Order 4410 was not found among your orders");
  });

  it("never echoes a made-up order id or an unknown tool", () => {
    expect(say(part("tool-get_order_status", "output-available", { orderId: "<script>" }))).toBe(
      "Checked an order",
    );
    // An unknown tool has no words, so ToolActivity shows no line.
    expect(say(part("tool-delete_everything", "output-error", {}))).toBe("");
    expect(toolNote({ type: "text", text: "hi" })).toBeNull();
  });
});
