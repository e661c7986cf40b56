/**
 * The four-eyes policy, in code: a refund above APPROVAL_THRESHOLD_MINOR needs a staff
 * member's approval after the customer confirms. Judged once, when the plan is stored (propose and
 * revise), and kept on the action: the card that told the customer and the confirm that acts on
 * it read the same answer, whatever the setting says later.
 */
import { z } from "zod";
import { env } from "@/lib/env";
import { REFUND } from "@/lib/tools/shapes";

/** Every write tool that moves money plans a `refund` (lib/tools/shapes.ts); others have none. */
const WITH_REFUND = z.looseObject({ refund: REFUND });

export function requiresApproval(plan: unknown): boolean {
  const threshold = env().APPROVAL_THRESHOLD_MINOR;
  if (threshold === 0) return false;
  const refund = WITH_REFUND.safeParse(plan).data?.refund;
  return refund !== undefined && refund.amount > threshold;
}
