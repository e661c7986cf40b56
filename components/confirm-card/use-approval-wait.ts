"use client";
import { useEffect } from "react";
import { fetchAction } from "@/lib/api-client/browser";
import { type CardOutcome, outcomeFromStatus } from "@/lib/chat-client/action-view";
import { followApproval } from "@/lib/chat-client/follow";

/**
 * While the card waits for staff approval, polls GET /api/actions/{id} with backoff
 * and reports the decision once staff made it (executed, rejected, expired, stale), so the card
 * updates without a reload. Stops when the card goes away.
 */
export function useApprovalWait(
  actionId: string,
  waiting: boolean,
  onOutcome: (actionId: string, outcome: CardOutcome) => void,
): void {
  useEffect(() => {
    if (!waiting) return;
    return followApproval({
      load: () => fetchAction(actionId),
      onDecided: (a) => {
        const outcome = outcomeFromStatus(a.status, a.view.outcome, a);
        if (outcome) onOutcome(actionId, outcome);
      },
    });
  }, [actionId, waiting, onOutcome]);
}
