"use client";
import { useSyncExternalStore } from "react";
import { formatDate } from "@/lib/format/date";

const subscribe = () => () => {};

/**
 * A calendar date in the reader's time zone. The server does not know that zone, so it renders
 * the plain ISO day and the browser swaps in the local wording after hydration (no mismatch).
 */
export function LocalDate({ iso, locale }: { iso: string; locale?: string }) {
  const inBrowser = useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
  return <time dateTime={iso}>{inBrowser ? formatDate(iso, locale) : iso.slice(0, 10)}</time>;
}
