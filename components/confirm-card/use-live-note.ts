"use client";
import { useEffect, useRef, useState } from "react";
import { fetchAction } from "@/lib/api-client/browser";
import { followOutcome, isUnsettled, type OutcomeNote } from "@/lib/chat-client/follow";

/**
 * An executed action's note, kept current while its effects (a refund) are under way: polls
 * GET /api/actions/{id} with backoff and stops once the note is settled, or when the card goes
 * away. A settled note, or none, is never polled. `onSettled` hears a followed note settle: the
 * server may have written into the chat meanwhile (after the store refused the write, the fresh
 * proposal), so the chat reloads then.
 */
export function useLiveNote(
  actionId: string,
  note: OutcomeNote | null | undefined,
  onSettled?: () => void,
): OutcomeNote | null | undefined {
  const [live, setLive] = useState<OutcomeNote | null>(null);
  const current = live ?? note;
  const unsettled = isUnsettled(current);
  const settledRef = useRef(onSettled);
  settledRef.current = onSettled;
  useEffect(() => {
    if (!unsettled) return;
    return followOutcome({
      load: () => fetchAction(actionId),
      onNote: (n) => {
        setLive(n);
        if (n.settled) settledRef.current?.();
      },
    });
  }, [actionId, unsettled]);
  return current;
}
