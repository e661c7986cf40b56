import type { Formats } from "next-intl";

/**
 * Named formats, so every screen shows a date or an amount the same way in each language:
 * `format.dateTime(d, "day")`, `format.number(n, { style: "currency", currency })`.
 */
export const formats = {
  dateTime: {
    // 26 Nov 2026 / 26 нояб. 2026 г.
    day: { day: "numeric", month: "short", year: "numeric" },
    // 26 Nov, 14:05:09
    moment: {
      day: "numeric",
      month: "short",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    },
    // 14:05
    time: { hour: "2-digit", minute: "2-digit" },
  },
} satisfies Formats;
