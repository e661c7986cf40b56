import Link from "next/link";
import { useTranslations } from "next-intl";
import type { StatusCounts } from "@/db/queries/audit";
import { AUDIT_STATUSES } from "@/db/schema";
import { STATUS_STYLE } from "./status-badge";
import { UtcTime } from "./utc-time";

/**
 * Counts by status as horizontal bars. Plain HTML and CSS: each bar is a list item whose text
 * ("Rejected: 12") is what screen readers and copy-paste get; the coloured bar is decoration.
 * A bar links to the table filtered by that status. The link's name comes from its content, the
 * visible words plus screen-reader-only ones ("Rejected: 12 events. Show only these."), not from
 * an aria-label: a voice-control user says what they see, so the name must contain the visible
 * text (axe's label-content-name-mismatch, which Lighthouse runs).
 */
export function StatusChart({
  counts,
  range,
  hrefFor,
}: {
  counts: StatusCounts;
  range: { from: Date; to: Date; chosen: boolean };
  hrefFor: (status: string) => string;
}) {
  const t = useTranslations("audit");
  const max = Math.max(1, ...Object.values(counts));
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  return (
    <figure className="rounded-xl border border-slate-200 bg-white p-4" data-testid="status-chart">
      <figcaption className="mb-3 text-sm text-slate-700">
        {t.rich("chart.caption", {
          chosen: range.chosen ? "yes" : "no",
          total,
          title: (chunks) => <span className="font-medium">{chunks}</span>,
          from: () => <UtcTime at={range.from} />,
          to: () => <UtcTime at={range.to} />,
          count: (chunks) => <span data-testid="chart-total">{chunks}</span>,
        })}
      </figcaption>
      <ul className="grid gap-1.5">
        {AUDIT_STATUSES.map((s) => (
          <li key={s} data-testid={`chart-${s}`}>
            <Link
              href={hrefFor(s)}
              className="grid grid-cols-[11rem_1fr_4rem] items-center gap-2 rounded text-sm hover:bg-slate-50"
            >
              <span className="truncate text-slate-800">
                {t("status", { status: s })}
                <span className="sr-only">: </span>
              </span>
              <span className="h-3 rounded bg-slate-100" aria-hidden="true">
                <span
                  className={`block h-3 rounded ${STATUS_STYLE[s].bar}`}
                  style={{ width: `${(counts[s] / max) * 100}%` }}
                />
              </span>
              <span className="text-right tabular-nums">
                <span data-testid="chart-count">{counts[s]}</span>
                <span className="sr-only"> {t("chart.barRest", { count: counts[s] })}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </figure>
  );
}
