/**
 * The return policy as deterministic code (docs/domain.md), used by plan() when proposing and again by
 * commit() when confirming, so the card and the write check the same rules.
 */
import type { OrderStatus } from "@/db/schema";

export const RETURN_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

/** Why the policy refuses a return: create_return_request's refusals, and get_order_status's word. */
export const INELIGIBLE_CODES = [
  "not_delivered",
  "order_cancelled",
  "return_window_passed",
] as const;

export type Eligibility =
  | { eligible: true; windowEndsAt: Date }
  | { eligible: false; code: (typeof INELIGIBLE_CODES)[number]; message: string };

export function returnEligibility(
  order: { status: OrderStatus; deliveredAt: Date | null },
  now: Date,
): Eligibility {
  if (order.status === "cancelled") {
    return {
      eligible: false,
      code: "order_cancelled",
      message: "The order was cancelled, so there is nothing to return.",
    };
  }
  if (order.status !== "delivered" || order.deliveredAt === null) {
    return {
      eligible: false,
      code: "not_delivered",
      message: `The order has not been delivered yet (status: ${order.status}); a return is possible after delivery.`,
    };
  }
  const windowEndsAt = new Date(order.deliveredAt.getTime() + RETURN_WINDOW_DAYS * DAY_MS);
  if (now.getTime() > windowEndsAt.getTime()) {
    return {
      eligible: false,
      code: "return_window_passed",
      message: `The ${RETURN_WINDOW_DAYS}-day return window ended on ${windowEndsAt.toISOString().slice(0, 10)}.`,
    };
  }
  return { eligible: true, windowEndsAt };
}
