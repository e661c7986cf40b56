/**
 * The request of a thread's tool (a return) that a customer started but has not finished (no
 * order number or nothing said about what is wrong yet), read from their messages. The summary
 * stores it so that folding older messages away does not lose the thread: "please file a return,
 * it's broken" ... (folded) ... "7718".
 */
import { classify, inThread, isFragment, requestsThread } from "./classify";
import type { OpenReturn } from "./summary-format";
import { THREAD_ROWS, type ThreadRows } from "./tool-rows";

/** `userTexts` oldest first, only those after the last proposal (a proposal closes a thread). */
export function openReturnRequest(userTexts: readonly string[]): OpenReturn | null {
  for (const tool of THREAD_ROWS) {
    const open = openIn(userTexts, tool);
    if (open) return open;
  }
  return null;
}

function openIn(userTexts: readonly string[], tool: ThreadRows): OpenReturn | null {
  const thread = [];
  for (const u of userTexts.map(classify).reverse()) {
    if (!inThread(u, tool)) break;
    thread.push(u);
  }
  if (!thread.some((t) => requestsThread(t, tool) || (isFragment(t) && t.reason !== null)))
    return null;
  const withId = thread.find((t) => t.ids.length === 1);
  const withReason = thread.find((t) => t.reason !== null)?.reason;
  return {
    orderId: withId?.ids[0] ?? null,
    reason: withReason?.reason ?? null,
    comment: withReason?.comment ?? null,
  };
}
