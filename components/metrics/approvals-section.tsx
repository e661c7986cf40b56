import { useTranslations } from "next-intl";
import type { ApprovalsReport } from "@/lib/metrics/approvals";
import { settleTime } from "./effects-section";

const pct = (v: number | null) => (v === null ? "–" : `${(v * 100).toFixed(1)}%`);

/** The people-in-the-loop figures for the range: customers' revisions and staff approvals. */
export function ApprovalsSection({ report }: { report: ApprovalsReport }) {
  const t = useTranslations("approval.metrics");
  const figures: [string, string, string][] = [
    ["revisions", t("revisions"), String(report.revisions)],
    ["awaiting", t("awaiting"), String(report.awaiting)],
    ["approved", t("approved"), String(report.approved)],
    ["rejected", t("rejected"), String(report.rejected)],
    ["expired", t("expired"), String(report.expired)],
    ["approval-rate", t("approvalRate"), pct(report.approvalRate)],
    ["rejection-rate", t("rejectionRate"), pct(report.rejectionRate)],
    [
      "time-to-approve",
      t("timeToApprove"),
      report.timeToApproveMs === null ? "–" : settleTime(report.timeToApproveMs),
    ],
  ];
  return (
    <section
      className="rounded-xl border border-slate-200 bg-white p-4"
      aria-labelledby="approvals-heading"
      data-testid="metrics-approvals"
    >
      <h2 id="approvals-heading" className="mb-2 text-sm font-semibold">
        {t("title")}
      </h2>
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        {figures.map(([id, label, value]) => (
          <div key={id}>
            <dt className="text-xs text-slate-600">{label}</dt>
            <dd className="text-lg font-semibold tabular-nums" data-testid={`metric-${id}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
