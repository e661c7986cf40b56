/** Audit times are shown in UTC, with the zone written out: staff in several time zones compare
 *  them with logs and with each other, and the date filter's days are UTC days too. */
export function formatUtc(value: Date | string): string {
  const d = new Date(value);
  return `${d.toISOString().replace("T", " ").slice(0, 19)} UTC`;
}

export function formatDuration(ms: number | null): string {
  if (ms === null) return "—";
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A long id shortened for a table cell; the full value stays in the title and the link. */
export function shortId(id: string): string {
  return id.length > 10 ? `${id.slice(0, 8)}…` : id;
}
