/**
 * The return request a customer started but has not finished (no order number or no reason yet),
 * read from their messages. The summary stores it so that folding older messages away does not
 * lose the thread: "please file a return, it's broken" ... (folded) ... "7718".
 */
import { classify, isFragment, isReturnRelated, requests } from "./classify";
import type { OpenReturn } from "./summary-format";

/** `userTexts` oldest first, only those after the last proposal (a proposal closes a thread). */
export function openReturnRequest(userTexts: readonly string[]): OpenReturn | null {
  const thread = [];
  for (const u of userTexts.map(classify).reverse()) {
    if (!isReturnRelated(u)) break;
    thread.push(u);
  }
  if (!thread.some((t) => requests(t) || (isFragment(t) && t.reason !== null))) return null;
  const withId = thread.find((t) => t.ids.length === 1);
  const withReason = thread.find((t) => t.reason !== null)?.reason;
  return {
    orderId: withId?.ids[0] ?? null,
    reason: withReason?.reason ?? null,
    comment: withReason?.comment ?? null,
  };
}
