/**
 * The cancellation's outcome note follows its refund: "Order 3004 is cancelled. Refund
 * of €45.00: processing", then "refunded", or "the refund failed: our team will contact you", in
 * English and Russian, from the tool's own catalogue texts; and presentAction() marks it settled
 * only when no effect is pending or in flight (what the card and the terminal poll on).
 */
import { describe, expect, it } from "vitest";
import { EFFECT_STATUSES, type EffectStatus } from "@/db/constants";
import { describeAction } from "@/lib/actions/describe";
import { presentAction } from "@/lib/chat/present";
import { getTool } from "@/lib/tools/registry";
import type { WriteTool } from "@/lib/tools/types";
import { effectPhase, effectsSettled } from "@/lib/tools/view";
import { SAMPLES } from "./write-tool-samples";

const tool = getTool("cancel_order") as WriteTool;
const sample = SAMPLES.cancel_order!;
const refund = (status: EffectStatus) => [{ kind: "payment.refund" as const, status }];
const note = (status: EffectStatus | null, lang: "en" | "ru" = "en", createdNow = true) =>
  describeAction(
    tool,
    { ...sample, result: { ...sample.result, createdNow } },
    lang,
    status ? refund(status) : [],
  ).outcome;

describe("the cancellation's note follows its refund", () => {
  it("in English, word for word: processing, refunded, failed", () => {
    for (const status of ["pending", "in_flight"] as const) {
      expect(note(status)).toEqual({
        tone: "neutral",
        text: "Order 3004 is cancelled. Refund of €45.00: processing. Cancellation ID: CN-TEST.",
      });
    }
    expect(note("succeeded")).toEqual({
      tone: "success",
      text: "Order 3004 is cancelled. Refund of €45.00: refunded. Cancellation ID: CN-TEST.",
    });
    expect(note("failed")).toEqual({
      tone: "warning",
      text: "Order 3004 is cancelled. Refund of €45.00: the refund failed: our team will contact you. Cancellation ID: CN-TEST.",
    });
    expect(note("needs_attention")?.text).toContain("our team is checking it");
    expect(note("needs_attention")?.tone).toBe("warning");
    expect(note("resolved")?.text).toContain("handled by our team");
  });

  it("in Russian: в обработке, then деньги возвращены", () => {
    expect(note("pending", "ru")?.text).toMatch(
      /^Заказ 3004 отменён\. Возврат 45,00\s€: в обработке\. Номер отмены: CN-TEST\.$/,
    );
    expect(note("succeeded", "ru")?.text).toMatch(
      /^Заказ 3004 отменён\. Возврат 45,00\s€: деньги возвращены\. Номер отмены: CN-TEST\.$/,
    );
    expect(note("failed", "ru")?.text).toContain("наша команда свяжется с вами");
  });

  it.each(["en", "ru"] as const)("in %s: a distinct, filled-in text for every status", (lang) => {
    const texts = EFFECT_STATUSES.map((s) => note(s, lang)!.text);
    for (const text of texts) expect(text).not.toMatch(/[{}]|tools\./);
    // pending and in_flight both read "processing"; every other status says something of its own.
    expect(new Set(texts).size).toBe(EFFECT_STATUSES.length - 1);
  });

  it("without a refund effect (nothing to refund, or before the outbox) and for a repeat, the old notes", () => {
    expect(note(null)?.text).toBe(
      "Order 3004 cancelled. €45.00 will be refunded. Cancellation ID: CN-TEST.",
    );
    expect(note("succeeded", "en", false)?.text).toBe(
      "Order 3004 was already cancelled (ID CN-TEST). Nothing new was done.",
    );
  });

  it("is settled only when no effect is pending or in flight", () => {
    expect(EFFECT_STATUSES.filter((s) => effectPhase(s) === "processing")).toEqual([
      "pending",
      "in_flight",
    ]);
    expect(effectsSettled([])).toBe(true);
    expect(effectsSettled([{ status: "succeeded" }, { status: "in_flight" }])).toBe(false);
    const action = {
      id: "a1",
      chatId: "c1",
      tool: "cancel_order",
      arguments: sample.arguments,
      plan: sample.plan,
      result: sample.result,
      status: "executed" as const,
      createdAt: "2026-05-05T10:00:00.000Z",
      expiresAt: "2026-05-05T10:15:00.000Z",
      decidedAt: "2026-05-05T10:01:00.000Z",
    };
    const present = (status: EffectStatus) =>
      presentAction(action as never, "en", refund(status)).view.outcome;
    expect(present("pending")?.settled).toBe(false);
    expect(present("in_flight")?.settled).toBe(false);
    for (const s of ["succeeded", "failed", "needs_attention", "resolved"] as const)
      expect(present(s)?.settled).toBe(true);
    expect(presentAction(action as never, "en").view.outcome?.settled).toBe(true);
    expect(presentAction({ ...action, result: null } as never, "en").view.outcome).toBeNull();
  });
});
