import Link from "next/link";
import { useTranslations } from "next-intl";
import { EFFECT_STATUSES } from "@/db/constants";
import type { EffectsReport } from "@/lib/metrics/effects";

/** A time from confirm to settled, in the page's one number format (see the metrics page). */
export function settleTime(ms: number): string {
  const fixed = (v: number) => v.toLocaleString("en-US", { maximumFractionDigits: 1 });
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${fixed(ms / 1000)} s`;
  if (ms < 3_600_000) return `${fixed(ms / 60_000)} min`;
  return `${fixed(ms / 3_600_000)} h`;
}

/**
 * Effects outside our database (refunds) confirmed in the range: how many are in each status, by
 * kind, and the time from the confirm to settled. Server-rendered tables, no chart.
 */
export function EffectsSection({ report }: { report: EffectsReport }) {
  const t = useTranslations("metrics.effects");
  const cell = "px-2 text-right tabular-nums";
  return (
    <section
      className="rounded-xl border border-slate-200 bg-white p-4"
      aria-labelledby="effects-heading"
      data-testid="metrics-effects"
    >
      <h2 id="effects-heading" className="mb-2 text-sm font-semibold">
        {t("heading")}
      </h2>
      <p className="mb-3 text-sm" data-testid="metrics-effects-queue">
        {t.rich("queue", {
          count: report.queue,
          link: (chunks) => (
            <Link href="/audit/queue" className="text-blue-700 underline">
              {chunks}
            </Link>
          ),
        })}
      </p>
      {report.kinds.length === 0 ? (
        <p className="text-sm text-slate-600" data-testid="metrics-effects-none">
          {t("none")}
        </p>
      ) : (
        <div className="grid gap-4 overflow-x-auto">
          <table className="w-full text-sm" data-testid="metrics-effects-status">
            <caption className="mb-1 text-left text-xs text-slate-600">{t("byStatus")}</caption>
            <thead>
              <tr className="text-left text-xs text-slate-600">
                <th scope="col">{t("kind")}</th>
                {EFFECT_STATUSES.map((s) => (
                  <th key={s} scope="col" className="px-2 text-right">
                    {t("status", { status: s })}
                  </th>
                ))}
                <th scope="col" className="px-2 text-right">
                  {t("total")}
                </th>
              </tr>
            </thead>
            <tbody>
              {report.kinds.map((k) => (
                <tr key={k.kind} className="border-t border-slate-100" data-kind={k.kind}>
                  <th
                    scope="row"
                    className="text-left font-mono text-xs font-normal"
                    translate="no"
                  >
                    {k.kind}
                  </th>
                  {EFFECT_STATUSES.map((s) => (
                    <td key={s} className={cell} data-status={s}>
                      {k.byStatus[s].toLocaleString("en-US")}
                    </td>
                  ))}
                  <td className={cell} data-status="total">
                    {k.total.toLocaleString("en-US")}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <table className="w-full text-sm" data-testid="metrics-effects-settle">
            <caption className="mb-1 text-left text-xs text-slate-600">
              {t("settleCaption")}
            </caption>
            <thead>
              <tr className="text-left text-xs text-slate-600">
                <th scope="col">{t("kind")}</th>
                <th scope="col" className="px-2 text-right">
                  {t("settled")}
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
              {report.kinds.map((k) => (
                <tr key={k.kind} className="border-t border-slate-100" data-kind={k.kind}>
                  <th
                    scope="row"
                    className="text-left font-mono text-xs font-normal"
                    translate="no"
                  >
                    {k.kind}
                  </th>
                  <td className={cell} data-figure="settled">
                    {(k.settle?.count ?? 0).toLocaleString("en-US")}
                  </td>
                  <td className={cell} data-figure="p50">
                    {k.settle ? settleTime(k.settle.p50) : "–"}
                  </td>
                  <td className={cell} data-figure="p90">
                    {k.settle ? settleTime(k.settle.p90) : "–"}
                  </td>
                  <td className={cell} data-figure="max">
                    {k.settle ? settleTime(k.settle.max) : "–"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
