/**
 * Following an executed action whose effects outside our database (a cancellation's refund) are
 * still under way: its outcome note says so (`settled: false`), and GET /api/actions/{id} has the
 * note as it stands now. Polled with backoff until the note is settled, and not at all when it
 * already is. Shared by the confirm card and the terminal chat; no React, no timers of its own
 * beyond the one it schedules, so it can be unit-tested with a fake `load`.
 */
import type { ApiResult } from "./errors";
import type { PendingAction } from "./schemas";

export type OutcomeNote = NonNullable<PendingAction["view"]["outcome"]>;

/** The first poll after 1 s, then twice as long each time, at most 30 s apart. */
export function followDelayMs(polls: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.min(polls, 5));
}

/** True when the note will still change by itself (an effect is pending or in flight). */
export function isUnsettled(note: PendingAction["view"]["outcome"] | undefined): boolean {
  return note != null && !note.settled;
}

/**
 * Polls `load` (the action as GET /api/actions/{id} has it) and reports each note it reads,
 * until one is settled, the action is gone (404) or the returned stop() is called. Errors
 * (offline, a 5xx, signed out) only push the next poll further out.
 */
export function followOutcome({
  load,
  onNote,
  delayMs = followDelayMs,
}: {
  load: () => Promise<ApiResult<Pick<PendingAction, "view">>>;
  onNote: (note: OutcomeNote) => void;
  delayMs?: (polls: number) => number;
}): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let polls = 0;
  const poll = async () => {
    const r = await load();
    if (stopped) return;
    if (r.ok && r.data.view.outcome) {
      onNote(r.data.view.outcome);
      if (r.data.view.outcome.settled) return;
    } else if (!r.ok && r.status === 404) return;
    polls += 1;
    timer = setTimeout(() => void poll(), delayMs(polls));
  };
  timer = setTimeout(() => void poll(), delayMs(0));
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/**
 * Following an action that waits for staff approval: polls `load` with the same
 * backoff until its status is no longer `awaiting_approval` (approved and executed, rejected,
 * expired, stale...), reports that action once and stops; 404 also stops. Shared by the card and
 * the terminal chat.
 */
export function followApproval<A extends Pick<PendingAction, "status">>({
  load,
  onDecided,
  delayMs = followDelayMs,
}: {
  load: () => Promise<ApiResult<A>>;
  onDecided: (action: A) => void;
  delayMs?: (polls: number) => number;
}): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let polls = 0;
  const poll = async () => {
    const r = await load();
    if (stopped) return;
    if (r.ok && r.data.status !== "awaiting_approval") return onDecided(r.data);
    if (!r.ok && r.status === 404) return;
    polls += 1;
    timer = setTimeout(() => void poll(), delayMs(polls));
  };
  timer = setTimeout(() => void poll(), delayMs(0));
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
