import { useFormatter } from "next-intl";

/**
 * An audit time, in UTC with the zone written out: staff in several time zones compare them with
 * logs and with each other, and the date filter's days are UTC days too. The order of day, month
 * and time follows the reader's language.
 */
export function UtcTime({ at }: { at: Date | string }) {
  const format = useFormatter();
  const d = new Date(at);
  return <time dateTime={d.toISOString()}>{format.dateTime(d, "utc")}</time>;
}

/** A duration as the reader's language writes it ("850 ms", "1.2 s" / "850 мс", "1,2 с"). */
export function Duration({ ms }: { ms: number | null }) {
  const format = useFormatter();
  if (ms === null) return "—";
  return ms < 1000
    ? format.number(ms, { style: "unit", unit: "millisecond", unitDisplay: "narrow" })
    : format.number(ms / 1000, {
        style: "unit",
        unit: "second",
        unitDisplay: "narrow",
        maximumFractionDigits: 1,
        minimumFractionDigits: 1,
      });
}
