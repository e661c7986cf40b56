/**
 * create_return_request (write): proposes a return; it runs only after the customer confirms.
 * The model supplies the order, a reason and a comment; the refund amount, currency and
 * destination always come from the order itself.
 */
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { getOrderForUser } from "@/db/queries/orders";
import {
  bumpOrderVersion,
  getReturnRequestByOrderId,
  insertReturnRequestIfAbsent,
} from "@/db/queries/returns";
import { ORDER_STATUSES, RETURN_REASONS } from "@/db/schema";
import { returnEligibility } from "@/lib/actions/policy";
import { COMMENT, ORDER_ID } from "./normalize";
import { ISO_DATE, MONEY, REFUND, RETURN_REQUEST_RESULT, toReturnRequestResult } from "./shapes";
import { ToolBusinessError, type WriteTool } from "./types";

const args = z.strictObject({
  orderId: ORDER_ID,
  reason: z.enum(RETURN_REASONS),
  comment: COMMENT,
});
export type CreateReturnArgs = z.output<typeof args>;

/** The plan of docs/domain.md: what Confirm would do, computed from what commit will check. */
export const RETURN_PLAN = z.strictObject({
  effect: z.literal("create_return_request"),
  order: z.strictObject({
    id: z.string(),
    status: z.enum(ORDER_STATUSES),
    deliveredAt: ISO_DATE,
    items: z.array(
      z.strictObject({ name: z.string(), quantity: z.number().int(), unitPrice: z.number().int() }),
    ),
    total: MONEY,
  }),
  eligible: z.literal(true),
  windowEndsAt: ISO_DATE,
  refund: REFUND,
  existingRequest: z.null(),
  externalRequests: z.literal(0),
});
export type ReturnPlan = z.output<typeof RETURN_PLAN>;

export const createReturnRequest: WriteTool<
  "create_return_request",
  typeof args,
  typeof RETURN_REQUEST_RESULT,
  typeof RETURN_PLAN
> = {
  name: "create_return_request",
  access: "write",
  description:
    "Propose a return for one of the customer's delivered orders. Use it only when the customer " +
    "explicitly asks to create a return and has given the order number and a reason. It does not " +
    "create anything by itself: the customer sees a confirmation card and must press Confirm. " +
    "If the order already has a return, the existing request comes back (createdNow: false).",
  args,
  result: RETURN_REQUEST_RESULT,
  planSchema: RETURN_PLAN,

  plan({ orderId }, ctx) {
    const order = getOrderForUser({ id: orderId, userId: ctx.userId });
    if (!order) {
      throw new ToolBusinessError(
        "order_not_found",
        `No order ${orderId} was found for this customer.`,
      );
    }
    if (order.returnRequest) {
      return { kind: "existing", result: toReturnRequestResult(order.returnRequest, false) };
    }
    const rule = returnEligibility(order, ctx.now);
    if (!rule.eligible) throw new ToolBusinessError(rule.code, rule.message);
    return {
      kind: "plan",
      target: { type: "order", id: order.id, version: order.version },
      plan: {
        effect: "create_return_request",
        order: {
          id: order.id,
          status: order.status,
          // Eligible implies delivered, so deliveredAt is set.
          deliveredAt: order.deliveredAt!.toISOString(),
          items: order.items.map((i) => ({
            name: i.name,
            quantity: i.quantity,
            unitPrice: i.unitPriceMinor,
          })),
          total: { amount: order.totalMinor, currency: order.currency },
        },
        eligible: true,
        windowEndsAt: rule.windowEndsAt.toISOString(),
        refund: {
          amount: order.totalMinor,
          currency: order.currency,
          destination: order.paymentMethod,
        },
        existingRequest: null,
        externalRequests: 0,
      },
    };
  },

  commit({ orderId, reason, comment }, ctx) {
    // Checked first: a return made by another action bumped the order's version, and the
    // customer should hear "already requested" (createdNow: false), not "the order changed".
    const existing = getReturnRequestByOrderId({ orderId });
    if (existing) return { kind: "done", result: toReturnRequestResult(existing, false) };

    const order = getOrderForUser({ id: orderId, userId: ctx.userId });
    if (!order)
      return { kind: "stale", code: "order_not_found", message: "The order no longer exists." };
    if (order.version !== ctx.target.version) {
      return {
        kind: "stale",
        code: "order_changed",
        message: "The order changed after the return was proposed.",
      };
    }
    const rule = returnEligibility(order, ctx.now);
    if (!rule.eligible) return { kind: "stale", code: rule.code, message: rule.message };

    const row = insertReturnRequestIfAbsent({
      id: newReturnRequestId(),
      orderId,
      userId: ctx.userId,
      reason,
      comment,
      refundAmountMinor: order.totalMinor,
      refundCurrency: order.currency,
      refundDestination: order.paymentMethod,
      actionId: ctx.actionId,
      operationId: ctx.actionId,
      createdAt: ctx.now,
    });
    if (!row) {
      const winner = getReturnRequestByOrderId({ orderId });
      if (!winner) throw new Error("return_requests conflict without a row");
      return { kind: "done", result: toReturnRequestResult(winner, false) };
    }
    // Inside BEGIN IMMEDIATE nobody else can write, so this CAS cannot fail after the check
    // above; it stays as the database-level guard, and a failure rolls the insert back.
    if (
      !bumpOrderVersion({
        orderId,
        userId: ctx.userId,
        expectedVersion: ctx.target.version,
        now: ctx.now,
      })
    ) {
      throw new Error("order version moved inside the confirm transaction");
    }
    return { kind: "done", result: toReturnRequestResult(row, true) };
  },
};

/**
 * What a customer reads back to support on the phone: short, unambiguous (no 0/O, 1/I), and
 * random so ids reveal nothing about volume. 40 bits is plenty beside the UNIQUE order_id.
 */
function newReturnRequestId(): string {
  const alphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
  const bytes = randomBytes(8);
  let id = "";
  for (const b of bytes) id += alphabet[b % 32];
  return `RR-${id}`;
}
