import { useTranslations } from "next-intl";
import type { HandoffsReport } from "@/lib/metrics/handoffs";
import { settleTime } from "./effects-section";

/** Handoffs requested in the range, how many staff answered, and how fast (first reply). */
export function HandoffsSection({ report }: { report: HandoffsReport }) {
  const t = useTranslations("metrics.handoffs");
  const cell = "px-2 text-right tabular-nums";
  return (
    <section
      className="rounded-xl border border-slate-200 bg-white p-4"
      aria-labelledby="handoffs-heading"
      data-testid="metrics-handoffs"
    >
      <h2 id="handoffs-heading" className="mb-2 text-sm font-semibold">
        {t("heading")}
      </h2>
      <table className="w-full text-sm">
        <caption className="mb-1 text-left text-xs text-slate-600">{t("caption")}</caption>
        <thead>
          <tr className="text-left text-xs text-slate-600">
            <th scope="col" className="px-2 text-right">
              {t("requested")}
            </th>
            <th scope="col" className="px-2 text-right">
              {t("replied")}
            </th>
            <th scope="col" className="px-2 text-right">
              p50
            </th>
            <th scope="col" className="px-2 text-right">
              p90
            </th>
            <th scope="col" className="px-2 text-right">
              {t("slowest")}
            </th>
          </tr>
        </thead>
        <tbody>
          <tr className="border-t border-slate-100">
            <td className={cell} data-figure="requested">
              {report.requested.toLocaleString("en-US")}
            </td>
            <td className={cell} data-figure="replied">
              {report.replied.toLocaleString("en-US")}
            </td>
            <td className={cell} data-figure="p50">
              {report.firstReply ? settleTime(report.firstReply.p50) : "–"}
            </td>
            <td className={cell} data-figure="p90">
              {report.firstReply ? settleTime(report.firstReply.p90) : "–"}
            </td>
            <td className={cell} data-figure="max">
              {report.firstReply ? settleTime(report.firstReply.max) : "–"}
            </td>
          </tr>
        </tbody>
      </table>
    </section>
  );
}
