/**
 * Result shapes shared by tools, pending actions and the API. Amounts are integers in minor units
 * (cents), exactly as stored; the UI formats them.
 */
import { z } from "zod";
import type { ReturnRequestRow } from "@/db/queries/return-requests";
import { RETURN_REASONS } from "@/db/schema";

export const ISO_DATE = z.iso.datetime();

export const MONEY = z.strictObject({
  amount: z.number().int().nonnegative(),
  currency: z.string().length(3),
});

export const REFUND = MONEY.extend({
  /** The original payment method label, e.g. "Visa •••• 4242". */
  destination: z.string(),
});

/** What a return request looks like to the model, the API and the confirm result. */
export const RETURN_REQUEST_RESULT = z.strictObject({
  requestId: z.string(),
  orderId: z.string(),
  status: z.literal("created"),
  /** false when the order already had this request (nothing new was created). */
  createdNow: z.boolean(),
  reason: z.enum(RETURN_REASONS),
  comment: z.string().nullable(),
  refund: REFUND,
  createdAt: ISO_DATE,
});
export type ReturnRequestResult = z.infer<typeof RETURN_REQUEST_RESULT>;

export function toReturnRequestResult(
  row: ReturnRequestRow,
  createdNow: boolean,
): ReturnRequestResult {
  return {
    requestId: row.id,
    orderId: row.orderId,
    status: "created",
    createdNow,
    reason: row.reason,
    comment: row.comment,
    refund: {
      amount: row.refundAmountMinor,
      currency: row.refundCurrency,
      destination: row.refundDestination,
    },
    createdAt: row.createdAt.toISOString(),
  };
}
