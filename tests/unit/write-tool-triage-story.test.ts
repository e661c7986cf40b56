/**
 * What staff read in triage (without a model) about each write tool's action: the tool's own
 * triage.story, for every action status and for a refused request, word for word. Also what it
 * says when the stored arguments, result or plan are missing or partial (an action of an older
 * version, a refusal with whatever the model sent): a placeholder, never a crash.
 */
import { describe, expect, it } from "vitest";
import { ACTION_STATUSES } from "@/db/constants";
import { getTool } from "@/lib/tools/registry";
import type { StaffStoryInput, WriteTool } from "@/lib/tools/types";
import { SAMPLES } from "./write-tool-samples";

const write = (name: string) => getTool(name) as WriteTool;

/** The tool's story of an action (the triage's input shape), from its sample unless overridden. */
function story(name: string, over: Partial<StaffStoryInput> & Pick<StaffStoryInput, "status">) {
  const sample = SAMPLES[name]!;
  return write(name).triage.story({
    args: sample.arguments as Record<string, unknown>,
    plan: sample.plan,
    result: over.status === "executed" ? sample.result : null,
    errorCode: null,
    ...over,
  });
}

type Row = [StaffStoryInput["status"], string | null, { summary: string; next: string }];

/** Every action status, plus "refused", has its row below: nothing falls through unsaid. */
const EVERY_STATUS = [...ACTION_STATUSES, "refused"].sort();
const statusesOf = (rows: Row[]) => [...new Set(rows.map(([s]) => s))].sort();

describe("cancel_order's triage story", () => {
  const asked = "Customer asked to cancel order 3004 (ordered_by_mistake)";
  const rows: Row[] = [
    [
      "executed",
      null,
      {
        summary: `${asked}; the order was cancelled.`,
        next: "Refund order 3004 (cancellation CN-TEST) to Visa •••• 4242 and make sure it does not ship.",
      },
    ],
    [
      "refused",
      "already_shipped",
      {
        summary: "Customer asked to cancel order 3004; it was not possible (already_shipped).",
        next: "Reply only if the customer disputes the refusal; the policy decided.",
      },
    ],
    ...(["pending", "executing"] as const).map(
      (s): Row => [
        s,
        null,
        {
          summary: `${asked}; a proposal awaits the customer's confirmation.`,
          next: "None yet: the customer has to confirm or cancel the cancellation of order 3004.",
        },
      ],
    ),
    [
      "failed",
      "commit_failed",
      {
        summary: `${asked}; the cancellation failed (commit_failed) and nothing was changed.`,
        next: "Investigate the failed cancellation of order 3004 and contact the customer.",
      },
    ],
    [
      "stale",
      "order_changed",
      {
        summary: `${asked}; the order changed (shipped?) before confirmation, so nothing was cancelled.`,
        next: "Check order 3004; if it shipped, offer the customer a return after delivery.",
      },
    ],
    ...(["cancelled", "expired", "superseded", "rejected", "awaiting_approval"] as const).map(
      (s): Row => [
        s,
        null,
        {
          summary: `${asked}; the proposal was ${s}.`,
          next: "No action needed unless the customer asks again.",
        },
      ],
    ),
  ];

  it("covers every status", () => expect(statusesOf(rows)).toEqual(EVERY_STATUS));

  it.each(rows)("%s (%s)", (status, errorCode, expected) => {
    expect(story("cancel_order", { status, errorCode })).toEqual(expected);
  });

  it("an executed cancellation that already existed says so", () => {
    const result = { ...SAMPLES.cancel_order!.result, createdNow: false };
    expect(story("cancel_order", { status: "executed", result }).summary).toBe(
      `${asked}; it was already cancelled.`,
    );
  });

  it("without a readable result or arguments: placeholders, not a crash", () => {
    expect(story("cancel_order", { status: "executed", result: null, args: {} })).toEqual({
      summary: "Customer asked to cancel order (unknown); the order was cancelled.",
      next: "Refund order (unknown) (cancellation ) to the original payment method and make sure it does not ship.",
    });
    // A result of an older shape: what it has is used, the refund's destination falls back.
    const partial = { cancellationId: "CN-OLD", createdNow: true };
    expect(
      story("cancel_order", { status: "executed", result: partial, args: { orderId: 42 } }).next,
    ).toBe(
      "Refund order (unknown) (cancellation CN-OLD) to the original payment method and make sure it does not ship.",
    );
  });

  it("a failure without a code says error", () => {
    expect(story("cancel_order", { status: "failed", errorCode: null }).summary).toBe(
      `${asked}; the cancellation failed (error) and nothing was changed.`,
    );
  });
});

describe("change_delivery_address's triage story", () => {
  const asked = "Customer asked to change the delivery address of order 3004";
  const rows: Row[] = [
    [
      "executed",
      null,
      {
        summary: `${asked}; the address was changed.`,
        next: "Make sure the warehouse ships order 3004 to Anna Petrova, Torstraße 1, 10119 Berlin, DE (change AC-TEST).",
      },
    ],
    [
      "refused",
      "country_not_shipped",
      {
        summary: `${asked}; it was not possible (country_not_shipped).`,
        next: "Reply only if the customer disputes the refusal; the policy decided.",
      },
    ],
    ...(["pending", "executing"] as const).map(
      (s): Row => [
        s,
        null,
        {
          summary: `${asked}; a proposal awaits the customer's confirmation.`,
          next: "None yet: the customer has to confirm or cancel the new address of order 3004.",
        },
      ],
    ),
    [
      "failed",
      "commit_failed",
      {
        summary: `${asked}; the change failed (commit_failed) and nothing was changed.`,
        next: "Investigate the failed address change of order 3004 and contact the customer.",
      },
    ],
    [
      "stale",
      "order_changed",
      {
        summary: `${asked}; the order changed (shipped?) before confirmation, so the address was not changed.`,
        next: "Check order 3004; if it shipped, the carrier may still redirect it.",
      },
    ],
    ...(["cancelled", "expired", "superseded", "rejected", "awaiting_approval"] as const).map(
      (s): Row => [
        s,
        null,
        {
          summary: `${asked}; the proposal was ${s}.`,
          next: "No action needed unless the customer asks again.",
        },
      ],
    ),
  ];

  it("covers every status", () => expect(statusesOf(rows)).toEqual(EVERY_STATUS));

  it.each(rows)("%s (%s)", (status, errorCode, expected) => {
    expect(story("change_delivery_address", { status, errorCode })).toEqual(expected);
  });

  it("an executed change the order already had says so", () => {
    const result = { ...SAMPLES.change_delivery_address!.result, createdNow: false };
    expect(story("change_delivery_address", { status: "executed", result }).summary).toBe(
      `${asked}; it already had that address.`,
    );
  });

  it("without a readable result or arguments: placeholders, not a crash", () => {
    expect(
      story("change_delivery_address", { status: "executed", result: null, args: {} }),
    ).toEqual({
      summary:
        "Customer asked to change the delivery address of order (unknown); the address was changed.",
      next: "Make sure the warehouse ships order (unknown) to the new address (change ).",
    });
  });

  it("a failure without a code says error", () => {
    expect(story("change_delivery_address", { status: "failed", errorCode: null }).summary).toBe(
      `${asked}; the change failed (error) and nothing was changed.`,
    );
  });
});

describe("create_return_request's triage story", () => {
  const asked = "Customer asked to return order 7718 (damaged)";
  const rows: Row[] = [
    [
      "executed",
      null,
      {
        summary: `${asked}; the return request was created.`,
        next: "Process return RR-TEST for order 7718 and refund it to Visa •••• 4242.",
      },
    ],
    [
      "refused",
      "return_window_expired",
      {
        summary:
          "Customer asked for a return of order 7718; it was not possible (return_window_expired).",
        next: "Reply only if the customer disputes the refusal; the policy decided.",
      },
    ],
    ...(["pending", "executing"] as const).map(
      (s): Row => [
        s,
        null,
        {
          summary: `${asked}; a proposal awaits the customer's confirmation.`,
          next: "None yet: the customer has to confirm or cancel the return of order 7718.",
        },
      ],
    ),
    [
      "failed",
      "commit_failed",
      {
        summary: `${asked}; the return failed (commit_failed) and nothing was changed.`,
        next: "Investigate the failed return of order 7718 and contact the customer.",
      },
    ],
    [
      "stale",
      "order_changed",
      {
        summary: `${asked}; the order changed before confirmation, so nothing was created.`,
        next: "Check order 7718, which changed after the proposal, and help the customer ask again.",
      },
    ],
    ...(["cancelled", "expired", "superseded", "rejected", "awaiting_approval"] as const).map(
      (s): Row => [
        s,
        null,
        {
          summary: `${asked}; the proposal was ${s}.`,
          next: "No action needed unless the customer asks again.",
        },
      ],
    ),
  ];

  it("covers every status", () => expect(statusesOf(rows)).toEqual(EVERY_STATUS));

  it.each(rows)("%s (%s)", (status, errorCode, expected) => {
    expect(story("create_return_request", { status, errorCode })).toEqual(expected);
  });

  it("an executed return that already existed says so", () => {
    const result = { ...SAMPLES.create_return_request!.result, createdNow: false };
    expect(story("create_return_request", { status: "executed", result }).summary).toBe(
      `${asked}; it already had a return request.`,
    );
  });

  it("without a readable result, plan or arguments: placeholders, not a crash", () => {
    expect(
      story("create_return_request", { status: "executed", result: null, plan: null, args: {} }),
    ).toEqual({
      summary: "Customer asked to return order (unknown); the return request was created.",
      next: "Process return  for order (unknown) and refund it to the original payment method.",
    });
  });

  it("a failure without a code says error", () => {
    expect(story("create_return_request", { status: "failed", errorCode: null }).summary).toBe(
      `${asked}; the return failed (error) and nothing was changed.`,
    );
  });
});
