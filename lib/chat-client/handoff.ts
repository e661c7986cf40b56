/**
 * Following a chat a person has taken over: staff replies arrive without the customer sending
 * anything, so the page polls GET /api/chats/{id} while `chat.handoff` is set and hands each
 * snapshot over. Stops once the chat is handed back (handoff null, after reporting it), on a 404
 * or when stop() is called. Errors (offline, a 5xx) only push the next poll further out. No
 * React, so it is unit-tested with a fake `load` (like follow.ts).
 */
import type { ApiResult } from "./errors";
import type { ChatSnapshot } from "./schemas";

/** Every 2 s while it works; after failures twice as long each time, at most 30 s apart. */
export function handoffPollDelayMs(failures: number): number {
  return Math.min(30_000, 2000 * 2 ** Math.min(failures, 4));
}

/** The handoff a stream just announced: its last data-handoff part, if any. */
export function announcedHandoff(
  parts: readonly { type: string; data?: unknown }[],
): "waiting" | "released" | null {
  for (let i = parts.length - 1; i >= 0; i--) {
    const p = parts[i]!;
    if (p.type !== "data-handoff") continue;
    const status = (p.data as { status?: unknown } | undefined)?.status;
    if (status === "waiting" || status === "released") return status;
  }
  return null;
}

export function followHandoff({
  load,
  onSnapshot,
  delayMs = handoffPollDelayMs,
}: {
  load: () => Promise<ApiResult<ChatSnapshot>>;
  onSnapshot: (snapshot: ChatSnapshot) => void;
  delayMs?: (failures: number) => number;
}): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  const poll = async () => {
    const r = await load();
    if (stopped) return;
    if (r.ok) {
      failures = 0;
      onSnapshot(r.data);
      if (!r.data.chat.handoff) return;
    } else if (r.status === 404) return;
    else failures += 1;
    timer = setTimeout(() => void poll(), delayMs(failures));
  };
  timer = setTimeout(() => void poll(), delayMs(0));
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
