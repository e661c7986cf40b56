import Link from "next/link";
import type { StatusCounts } from "@/db/queries/audit";
import { AUDIT_STATUSES } from "@/db/schema";
import { formatUtc } from "./format";
import { STATUS_LABEL, STATUS_STYLE } from "./status-badge";

/**
 * Counts by status as horizontal bars. Plain HTML and CSS: each bar is a list item whose text
 * ("Rejected: 12") is what screen readers and copy-paste get; the coloured bar is decoration.
 * A bar links to the table filtered by that status.
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
  const max = Math.max(1, ...Object.values(counts));
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  return (
    <figure className="rounded-xl border border-slate-200 bg-white p-4" data-testid="status-chart">
      <figcaption className="mb-3 text-sm text-slate-700">
        <span className="font-medium">Events by status</span> (all customers and tools){" "}
        {range.chosen ? "in the chosen range" : "in the last 7 days"} ({formatUtc(range.from)} –{" "}
        {formatUtc(range.to)}): <span data-testid="chart-total">{total}</span> in total
      </figcaption>
      <ul className="grid gap-1.5">
        {AUDIT_STATUSES.map((s) => (
          <li key={s} data-testid={`chart-${s}`}>
            <Link
              href={hrefFor(s)}
              aria-label={`${STATUS_LABEL[s]}: ${counts[s]} events. Show only these.`}
              className="grid grid-cols-[11rem_1fr_4rem] items-center gap-2 rounded text-sm hover:bg-slate-50"
            >
              <span className="truncate text-slate-800">{STATUS_LABEL[s]}</span>
              <span className="h-3 rounded bg-slate-100" aria-hidden="true">
                <span
                  className={`block h-3 rounded ${STATUS_STYLE[s].bar}`}
                  style={{ width: `${(counts[s] / max) * 100}%` }}
                />
              </span>
              <span className="text-right tabular-nums" data-testid="chart-count">
                {counts[s]}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </figure>
  );
}
