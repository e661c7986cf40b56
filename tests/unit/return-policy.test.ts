import { describe, expect, it } from "vitest";
import { returnEligibility } from "@/lib/tools/return-policy";

const DAY = 86_400_000;
const now = new Date("2026-05-31T12:00:00.000Z");
const deliveredDaysAgo = (d: number, extraMs = 0) => new Date(now.getTime() - d * DAY - extraMs);

describe("return policy (docs/domain.md)", () => {
  it("allows a delivered order up to and including day 30", () => {
    expect(
      returnEligibility({ status: "delivered", deliveredAt: deliveredDaysAgo(4) }, now),
    ).toEqual({
      eligible: true,
      windowEndsAt: new Date(now.getTime() + 26 * DAY),
    });
    expect(
      returnEligibility({ status: "delivered", deliveredAt: deliveredDaysAgo(30) }, now).eligible,
    ).toBe(true);
  });

  it("refuses one millisecond after the window and names the end date", () => {
    const r = returnEligibility({ status: "delivered", deliveredAt: deliveredDaysAgo(30, 1) }, now);
    expect(r).toMatchObject({ eligible: false, code: "return_window_passed" });
    expect(r.eligible === false && r.message).toContain("2026-05-31");
  });

  it("refuses orders that are not delivered, with a code per reason", () => {
    for (const status of ["processing", "shipped", "in_transit"] as const) {
      expect(returnEligibility({ status, deliveredAt: null }, now)).toMatchObject({
        eligible: false,
        code: "not_delivered",
      });
    }
    expect(returnEligibility({ status: "cancelled", deliveredAt: null }, now)).toMatchObject({
      eligible: false,
      code: "order_cancelled",
    });
  });
});
