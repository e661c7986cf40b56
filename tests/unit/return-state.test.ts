/**
 * A return as staff see it: requested until the parcel is received, then received until its
 * refund has gone through (or was settled by hand), then refunded; a refund that failed or needs
 * a person keeps it "received", since the customer has not been paid. And the view's fields, with
 * no receipt time before the parcel came.
 */
import { describe, expect, it } from "vitest";
import { returnState, toStaffReturn } from "@/lib/returns/receive";

const base: Parameters<typeof toStaffReturn>[0] = {
  id: "RR-1",
  orderId: "7718",
  actionId: "act-1",
  receivedAt: null,
  receivedBy: null,
  refundAmountMinor: 2500,
  refundCurrency: "EUR",
  refundStatus: null,
  refundEffectId: null,
};

describe("a return's state for staff", () => {
  it("requested before the parcel came, whatever the refund says", () => {
    expect(returnState(base)).toBe("requested");
    expect(returnState({ ...base, refundStatus: "succeeded" })).toBe("requested");
  });

  it("received until the refund went through or was settled by hand; then refunded", () => {
    const received = { ...base, receivedAt: new Date(0), receivedBy: "staff-1" };
    expect(returnState(received)).toBe("received");
    for (const status of ["pending", "in_flight", "failed", "needs_attention"] as const)
      expect(returnState({ ...received, refundStatus: status }), status).toBe("received");
    for (const status of ["succeeded", "resolved"] as const)
      expect(returnState({ ...received, refundStatus: status }), status).toBe("refunded");
  });

  it("the view: its ids, the receipt's time and who, the refund", () => {
    expect(toStaffReturn(base)).toEqual({
      id: "RR-1",
      orderId: "7718",
      actionId: "act-1",
      state: "requested",
      receivedAt: null,
      receivedBy: null,
      refund: { amount: 2500, currency: "EUR", status: null, effectId: null },
    });
    const at = new Date("2026-05-01T10:00:00.000Z");
    expect(
      toStaffReturn({
        ...base,
        receivedAt: at,
        receivedBy: "staff-1",
        refundStatus: "pending",
        refundEffectId: "eff-1",
      }),
    ).toMatchObject({
      state: "received",
      receivedAt: "2026-05-01T10:00:00.000Z",
      receivedBy: "staff-1",
      refund: { status: "pending", effectId: "eff-1" },
    });
  });
});
