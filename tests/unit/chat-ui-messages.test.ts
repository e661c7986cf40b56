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
  const part = (type: string, state: string, input: unknown) =>
    ({ type, toolCallId: "c1", state, input, output: {} }) as unknown as Part;
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
    return note.running ? t("running", v) : note.failed ? t("failed", v) : t("done", v);
  };

  it("says quietly what was looked at", () => {
    expect(
      toolNote(part("tool-get_order_status", "output-available", { orderId: "8041" })),
    ).toEqual({ tool: "get_order_status", orderId: "8041", failed: false, running: false });
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

  it("never echoes a made-up order id or an unknown tool", () => {
    expect(say(part("tool-get_order_status", "output-available", { orderId: "<script>" }))).toBe(
      "Checked an order",
    );
    // An unknown tool has no words, so ToolActivity shows no line.
    expect(say(part("tool-delete_everything", "output-error", {}))).toBe("");
    expect(toolNote({ type: "text", text: "hi" })).toBeNull();
  });
});
