import { describe, expect, it } from "vitest";
import {
  describeOutcome,
  outcomeFromDecision,
  outcomeFromStatus,
} from "@/lib/chat-client/action-view";
import { formatRemaining, remainingMinutes } from "@/lib/chat-client/countdown";
import { decisionFromError } from "@/lib/chat-client/decision";
import { conversationText } from "@/lib/i18n/messages";

const en = conversationText("en");

describe("the card's outcome after a decision or a reload", () => {
  it("shows the tool's own note on an executed action, a neutral word when it has none", () => {
    const note = { tone: "neutral" as const, text: "It already existed.", settled: true };
    const executed = outcomeFromDecision({ kind: "executed", note });
    expect(executed && describeOutcome(executed, en)).toEqual(note);
    const bare = outcomeFromDecision({ kind: "executed", note: null });
    expect(bare && describeOutcome(bare, en)).toEqual({ tone: "success", text: "Confirmed." });
  });

  it("maps the action API's refusals to final outcomes, and keeps retryable ones open", () => {
    const decide = (status: number, error: Record<string, string> | null) =>
      outcomeFromDecision(
        decisionFromError({ status, error: error && { code: error.code ?? "", ...error } }),
      );
    expect(decide(409, { code: "already_decided", status: "executed" })).toEqual({
      kind: "already_decided",
      status: "executed",
    });
    expect(decide(410, { code: "expired" })).toEqual({ kind: "expired" });
    expect(decide(409, { code: "stale" })).toEqual({ kind: "stale" });
    expect(decide(409, { code: "superseded" })).toEqual({ kind: "superseded" });
    expect(decide(500, { code: "internal_error" })).toEqual({ kind: "failed" });
    expect(decide(401, { code: "unauthenticated" })).toBeNull();
    expect(decide(0, null)).toBeNull();
  });

  it("words every outcome, including one decided in another tab", () => {
    expect(describeOutcome({ kind: "already_decided", status: "executed" }, en).text).toBe(
      "Already decided in another tab: confirmed.",
    );
    expect(describeOutcome({ kind: "already_decided", status: "cancelled" }, en).text).toBe(
      "Already decided in another tab: cancelled.",
    );
    expect(describeOutcome({ kind: "cancelled" }, en).text).toBe(
      "You declined this request, so nothing was done.",
    );
    expect(describeOutcome({ kind: "expired" }, en).text).toMatch(/^This offer expired/);
    expect(describeOutcome({ kind: "stale" }, en).text).toMatch(/^No longer valid/);
    expect(describeOutcome({ kind: "superseded" }, en).text).toMatch(/^No longer valid/);
    expect(describeOutcome({ kind: "failed" }, en).text).toMatch(/nothing was created/);
  });

  it("rebuilds the outcome from the stored status after a reload", () => {
    const note = { tone: "success" as const, text: "Done.", settled: true };
    expect(outcomeFromStatus("pending", null)).toBeNull();
    expect(outcomeFromStatus("executed", note)).toEqual({ kind: "executed", note });
    expect(outcomeFromStatus("expired", null)).toEqual({ kind: "expired" });
  });
});

describe("countdown", () => {
  it("shows minutes and seconds, hours when needed, never below zero", () => {
    expect(formatRemaining(899_001)).toBe("15:00");
    expect(formatRemaining(61_000)).toBe("1:01");
    expect(formatRemaining(3_723_000)).toBe("1:02:03");
    expect(formatRemaining(-5)).toBe("0:00");
    expect(remainingMinutes(30_000)).toBe(0);
    expect(remainingMinutes(14 * 60_000)).toBe(14);
  });
});
