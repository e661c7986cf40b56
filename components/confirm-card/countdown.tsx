"use client";
import { useFormatter, useTranslations } from "next-intl";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { formatRemaining, remainingMinutes } from "@/lib/chat-client/countdown";

const subscribe = () => () => {};

/**
 * A live countdown to `expiresAt`. Calls `onExpire` once when it reaches zero, also when the
 * offer was already over at mount (a reload long after the proposal). The ticking clock is hidden
 * from screen readers, which get the deadline and a coarse "about N minutes" instead. The
 * deadline is in the reader's time zone, which only the browser knows: the server renders it in
 * the app's zone and the browser swaps in its own after hydration.
 */
export function Countdown({ expiresAt, onExpire }: { expiresAt: string; onExpire: () => void }) {
  const t = useTranslations("conversation.card");
  const format = useFormatter();
  const readerZone = useSyncExternalStore(
    subscribe,
    () => Intl.DateTimeFormat().resolvedOptions().timeZone,
    () => null,
  );
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
        {t("expiresIn")}{" "}
        <span className="font-mono tabular-nums" suppressHydrationWarning>
          {formatRemaining(left)}
        </span>
      </span>
      <span className="sr-only" suppressHydrationWarning>
        {t("expiresAt", {
          at: format.dateTime(deadline, "moment", readerZone ? { timeZone: readerZone } : {}),
          minutes: remainingMinutes(left),
        })}
      </span>
    </p>
  );
}
