"use client";
import { useEffect, useState } from "react";
import { fetchAction } from "@/lib/api-client/browser";
import { followOutcome, isUnsettled, type OutcomeNote } from "@/lib/chat-client/follow";

/**
 * An executed action's note, kept current while its effects (a refund) are under way: polls
 * GET /api/actions/{id} with backoff and stops once the note is settled, or when the card goes
 * away. A settled note, or none, is never polled.
 */
export function useLiveNote(
  actionId: string,
  note: OutcomeNote | null | undefined,
): OutcomeNote | null | undefined {
  const [live, setLive] = useState<OutcomeNote | null>(null);
  const current = live ?? note;
  const unsettled = isUnsettled(current);
  useEffect(() => {
    if (!unsettled) return;
    return followOutcome({ load: () => fetchAction(actionId), onNote: setLive });
  }, [actionId, unsettled]);
  return current;
}
