"use client";
import { useEffect, useRef, useState } from "react";
import { cardText, type Lang } from "@/lib/chat-client/card-text";
import { formatRemaining, remainingMinutes } from "@/lib/chat-client/countdown";
import { formatDateTime } from "@/lib/format/date";

/**
 * A live countdown to `expiresAt`. Calls `onExpire` once when it reaches zero, also when the
 * offer was already over at mount (a reload long after the proposal). The ticking clock is hidden
 * from screen readers, which get the deadline and a coarse "about N minutes" instead.
 */
export function Countdown({
  expiresAt,
  onExpire,
  lang = "en",
}: {
  expiresAt: string;
  onExpire: () => void;
  lang?: Lang;
}) {
  const t = cardText(lang);
  const deadline = Date.parse(expiresAt);
  const [now, setNow] = useState(() => Date.now());
  const fired = useRef(false);
  const onExpireRef = useRef(onExpire);
  useEffect(() => {
    onExpireRef.current = onExpire;
  });
  const left = deadline - now;

  useEffect(() => {
    if (left <= 0) {
      if (!fired.current) {
        fired.current = true;
        onExpireRef.current();
      }
      return;
    }
    // Tick on the next whole second of the remaining time so the display never skips a number.
    const t = window.setTimeout(() => setNow(Date.now()), left % 1000 || 1000);
    return () => window.clearTimeout(t);
  }, [left]);

  return (
    <p className="text-sm text-slate-700" data-testid="confirm-countdown">
      <span aria-hidden="true" suppressHydrationWarning>
        {t.expiresIn}{" "}
        <span className="font-mono tabular-nums" suppressHydrationWarning>
          {formatRemaining(left)}
        </span>
      </span>
      <span className="sr-only" suppressHydrationWarning>
        {t.expiresAt(formatDateTime(deadline, t.locale), t.remaining(remainingMinutes(left)))}
      </span>
    </p>
  );
}
