import { describe, expect, it } from "vitest";
import {
  actionSummary,
  argumentRows,
  describeOutcome,
  itemRows,
  outcomeFromDecision,
  outcomeFromStatus,
} from "@/lib/chat-client/action-view";
import { decisionFromError } from "@/lib/chat-client/api";
import { describeRemaining, formatRemaining } from "@/lib/chat-client/countdown";
import { proposal } from "./chat-ui-fixtures";

const TOOL = "create_return_request";

describe("confirm card wording, from the PendingAction alone", () => {
  it("says in plain words what Confirm will do, with the refund from the plan", () => {
    expect(actionSummary(proposal())).toBe(
      "If you confirm, we will create a return request for order 7718 and refund €258.90 to Visa •••• 4242. Nothing happens until you confirm.",
    );
  });

  it("lists the arguments with readable labels and shows a missing comment as None", () => {
    expect(argumentRows({ orderId: "7718", reason: "damaged", comment: null })).toEqual([
      { label: "Reason", value: "Arrived damaged" },
      { label: "Comment", value: "None" },
    ]);
    expect(argumentRows({ reason: "other", comment: "<b>box</b> 🙂" })).toEqual([
      { label: "Reason", value: "Other" },
      { label: "Comment", value: "<b>box</b> 🙂" },
    ]);
  });

  it("prices items whether the plan gives minor units or a money object", () => {
    expect(itemRows(proposal().plan)).toEqual([
      {
        key: "0-Barista Pro coffee machine",
        text: "1 × Barista Pro coffee machine (€258.90 each)",
      },
    ]);
    const plan = proposal().plan;
    const withObject = {
      ...plan,
      order: {
        id: "7718",
        items: [{ name: "Mug", quantity: 2, unitPrice: { amount: 990, currency: "EUR" } }],
      },
    };
    expect(itemRows(withObject)[0]?.text).toBe("2 × Mug (€9.90 each)");
  });

  it("falls back to neutral wording for a tool it has no words for", () => {
    const a = proposal({
      tool: "change_address",
      arguments: { orderId: "8041", street: "Main St" },
    });
    expect(actionSummary(a)).toContain("we will change address for order 7718");
    expect(argumentRows(a.arguments)).toEqual([{ label: "Street", value: "Main St" }]);
  });
});

describe("the card's outcome after a decision or a reload", () => {
  it("tells a new request from one that already existed", () => {
    const created = outcomeFromDecision({
      kind: "executed",
      result: { requestId: "rr_1", createdNow: true },
    });
    expect(created && describeOutcome(created, TOOL)).toEqual({
      tone: "success",
      text: "Return request created. Request ID: rr_1.",
    });
    const existing = outcomeFromDecision({
      kind: "executed",
      result: { requestId: "rr_1", createdNow: false },
    });
    expect(existing && describeOutcome(existing, TOOL).text).toBe(
      "A return request already existed (ID rr_1). Nothing new was created.",
    );
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
    expect(describeOutcome({ kind: "already_decided", status: "executed" }, TOOL).text).toBe(
      "Already decided in another tab: confirmed.",
    );
    expect(describeOutcome({ kind: "already_decided", status: "cancelled" }, TOOL).text).toBe(
      "Already decided in another tab: cancelled.",
    );
    expect(describeOutcome({ kind: "cancelled" }, TOOL).text).toBe(
      "Cancelled. Nothing was created.",
    );
    expect(describeOutcome({ kind: "expired" }, TOOL).text).toMatch(/^This offer expired/);
    expect(describeOutcome({ kind: "stale" }, TOOL).text).toMatch(/^No longer valid/);
    expect(describeOutcome({ kind: "superseded" }, TOOL).text).toMatch(/^No longer valid/);
    expect(describeOutcome({ kind: "failed" }, TOOL).text).toMatch(/nothing was created/);
  });

  it("rebuilds the outcome from the stored status after a reload", () => {
    expect(outcomeFromStatus("pending", null)).toBeNull();
    expect(outcomeFromStatus("executed", { requestId: "rr_9", createdNow: true })).toEqual({
      kind: "executed",
      result: { requestId: "rr_9", createdNow: true },
    });
    expect(outcomeFromStatus("expired", null)).toEqual({ kind: "expired" });
  });
});

describe("countdown", () => {
  it("shows minutes and seconds, hours when needed, never below zero", () => {
    expect(formatRemaining(899_001)).toBe("15:00");
    expect(formatRemaining(61_000)).toBe("1:01");
    expect(formatRemaining(3_723_000)).toBe("1:02:03");
    expect(formatRemaining(-5)).toBe("0:00");
    expect(describeRemaining(30_000)).toBe("less than a minute");
    expect(describeRemaining(14 * 60_000)).toBe("about 14 minutes");
  });
});
