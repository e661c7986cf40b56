/**
 * get_return_policy (read): the rules the policy code enforces, stated from the same constants
 * so the answer can never drift from what plan()/commit() check.
 */
import { z } from "zod";
import { RETURN_REASONS } from "@/db/schema";
import { RETURN_WINDOW_DAYS } from "@/lib/tools/return-policy";
import { COMMENT_MAX_CHARS } from "../normalize";
import type { ReadTool } from "../types";
import { meta } from "./meta";

const args = z.strictObject({});

const result = z.strictObject({
  windowDays: z.number().int(),
  windowStarts: z.literal("delivery"),
  acceptedReasons: z.array(z.enum(RETURN_REASONS)),
  refund: z.string(),
  notReturnable: z.array(z.string()),
  howToRequest: z.string(),
});

export const getReturnPolicy: ReadTool<"get_return_policy", typeof args, typeof result> = {
  name: meta.name,
  help: meta.help,
  access: "read",
  // The offline model looks the policy up by what this reads, not by its name.
  offline: { reads: "policy" },
  // The store's rules, the same for everyone: a visitor who is not signed in may ask too.
  visitors: true,
  description:
    "The store's return policy: the return window, accepted reasons, how refunds work and what " +
    "cannot be returned. Use it to answer questions about returns; it changes nothing.",
  args,
  result,
  execute() {
    return {
      windowDays: RETURN_WINDOW_DAYS,
      windowStarts: "delivery",
      acceptedReasons: [...RETURN_REASONS],
      refund:
        "The full order total is refunded to the original payment method once the return is created.",
      notReturnable: [
        "orders that have not been delivered yet",
        "cancelled orders",
        `orders delivered more than ${RETURN_WINDOW_DAYS} days ago`,
        "orders that already have a return request (one return per order)",
      ],
      howToRequest:
        `Give the order number and a reason (defective, damaged or other), optionally a comment of up to ${COMMENT_MAX_CHARS} characters. ` +
        "The customer then sees a confirmation card; nothing happens until they press Confirm.",
    };
  },
};
