import type { Formats } from "next-intl";

/**
 * Named formats, so every screen shows a date the same way in each language:
 * `format.dateTime(d, "day")`. Amounts use `format.number(n, { style: "currency", currency })`.
 */
export const formats = {
  dateTime: {
    // Nov 26, 2026 / 26 нояб. 2026 г.
    day: { day: "numeric", month: "short", year: "numeric" },
    // Nov 26, 14:05:09: the moment an offer expires.
    moment: {
      day: "numeric",
      month: "short",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    },
    // When a chat was started, to the minute: seconds are noise in a list.
    started: { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" },
    // Audit times: to the second, 24-hour, with the zone written out (always UTC).
    utc: {
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
      timeZone: "UTC",
      timeZoneName: "short",
    },
  },
} satisfies Formats;
