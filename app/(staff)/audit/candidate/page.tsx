import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { AuditDetailShell } from "@/components/audit/audit-detail-shell";
import { RollbackForm } from "@/components/audit/rollback-form";
import { UtcTime } from "@/components/audit/utc-time";
import { ClientMessages } from "@/components/client-messages";
import { requireStaffPage } from "@/lib/audit/page-guard";
import { driftReport } from "@/lib/chat/candidate/drift";
import { candidateReport } from "@/lib/chat/candidate/report";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("candidate");
  return { title: t("title") };
}
export const dynamic = "force-dynamic";

// Shares as staff compare them across pages: one format in both languages (as /audit/metrics).
const pct = (v: number | null) => (v === null ? "–" : `${(v * 100).toFixed(1)}%`);

/**
 * The candidate model for staff (what GET /api/staff/candidate says, as a page): its mode, share
 * and fingerprint; the shadow's agreement with the live model and its recent differences; the
 * canary's drift windows against their corridor; its rollbacks; and the rollback with a reason.
 */
export default async function CandidatePage() {
  const user = await requireStaffPage();
  const t = await getTranslations("candidate");
  const [report, drift] = await Promise.all([candidateReport(), driftReport()]);
  const c = report.comparison;
  const differences = report.recent.filter((r) => !r.toolsAgree || !r.argsAgree);
  const windows = drift.profiles.find((p) => p.role === "candidate")?.windows ?? [];
  const rollbacks = drift.alerts.filter((a) => a.kind === "candidate.rollback");
  return (
    <AuditDetailShell user={user} crumb={t("title")}>
      <ClientMessages namespaces={["candidate"]}>
        <h1 className="text-xl font-semibold">{t("title")}</h1>
        <section
          className="rounded-xl border border-slate-200 bg-white p-4"
          aria-labelledby="cand-now"
        >
          <h2 id="cand-now" className="mb-2 font-semibold">
            {t("now")}
          </h2>
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-600">{t("mode")}</dt>
            <dd data-testid="candidate-mode">{t("modeValue", { mode: report.mode })}</dd>
            <dt className="text-slate-600">{t("share")}</dt>
            <dd data-testid="candidate-share">{pct(report.share)}</dd>
            <dt className="text-slate-600">{t("live")}</dt>
            <dd className="font-mono text-xs [overflow-wrap:anywhere]" translate="no">
              {report.live.fingerprint} · {report.live.model} · {report.live.promptVersion}
            </dd>
            <dt className="text-slate-600">{t("candidate")}</dt>
            <dd
              className="font-mono text-xs [overflow-wrap:anywhere]"
              translate="no"
              data-testid="candidate-fingerprint"
            >
              {report.candidate
                ? `${report.candidate.fingerprint} · ${report.candidate.model} · ${report.candidate.promptVersion}`
                : t("none")}
            </dd>
          </dl>
        </section>

        <section
          className="rounded-xl border border-slate-200 bg-white p-4"
          aria-labelledby="cand-shadow"
        >
          <h2 id="cand-shadow" className="mb-2 font-semibold">
            {t("shadow")}
          </h2>
          <p className="text-sm" data-testid="candidate-agreement">
            {t("agreement", {
              turns: c.turns,
              tools: pct(c.toolAgreement),
              args: pct(c.argsAgreement),
              candidateOnly: c.candidateOnlyWrites,
              liveOnly: c.liveOnlyWrites,
              errors: c.candidateErrors,
            })}
          </p>
          <h3 className="mt-3 text-sm font-medium">{t("differences")}</h3>
          {differences.length === 0 ? (
            <p className="text-sm text-slate-600" data-testid="candidate-no-differences">
              {t("noDifferences")}
            </p>
          ) : (
            <ul className="mt-1 grid gap-1 text-sm" data-testid="candidate-differences">
              {differences.map((d) => (
                <li key={d.id}>
                  <UtcTime at={new Date(d.at)} />
                  {" · "}
                  {t("difference", {
                    live: d.tools.live.join(", ") || "–",
                    candidate: d.tools.candidate.join(", ") || "–",
                    fields: d.argDiffs.flatMap((a) => a.fields).join(", ") || "–",
                  })}
                </li>
              ))}
            </ul>
          )}
        </section>

        <section
          className="rounded-xl border border-slate-200 bg-white p-4"
          aria-labelledby="cand-canary"
        >
          <h2 id="cand-canary" className="mb-2 font-semibold">
            {t("canary")}
          </h2>
          <p className="text-sm">
            {t("canaryTurns", { turns: report.canary.turns, fallbacks: report.canary.fallbacks })}
          </p>
          {windows.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">{t("noWindows")}</p>
          ) : (
            <table className="mt-2 w-full text-left text-sm" data-testid="candidate-windows">
              <caption className="sr-only">{t("windowsCaption")}</caption>
              <thead className="text-xs text-slate-600">
                <tr>
                  <th scope="col">{t("windowStart")}</th>
                  <th scope="col">{t("windowTurns")}</th>
                  <th scope="col">{t("windowCorridor")}</th>
                </tr>
              </thead>
              <tbody>
                {windows.map((w) => (
                  <tr key={w.start}>
                    <td>
                      <UtcTime at={new Date(w.start)} />
                    </td>
                    <td className="tabular-nums">{w.turns}</td>
                    <td>
                      {w.corridor === null
                        ? t("noCorridor")
                        : w.breached.length > 0
                          ? t("outside", { signals: w.breached.join(", ") })
                          : t("inside")}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>

        <section
          className="rounded-xl border border-slate-200 bg-white p-4"
          aria-labelledby="cand-rollback"
        >
          <h2 id="cand-rollback" className="mb-2 font-semibold">
            {t("rollbacks")}
          </h2>
          {rollbacks.length === 0 && !report.rollback ? (
            <p className="text-sm text-slate-600" data-testid="candidate-no-rollbacks">
              {t("noRollbacks")}
            </p>
          ) : (
            <ul className="grid gap-1 text-sm" data-testid="candidate-rollbacks">
              {report.rollback && (
                <li data-testid="candidate-rollback-current">
                  {t("rolledBack", {
                    reason: report.rollback.reason,
                    by: report.rollback.by ? "staff" : "auto",
                  })}{" "}
                  <UtcTime at={new Date(report.rollback.at)} />
                </li>
              )}
              {rollbacks
                .filter((a) => !report.rollback || a.at !== report.rollback.at)
                .map((a) => (
                  <li key={a.id}>
                    {t("rollbackAlert", { fingerprint: a.fingerprint ?? "–" })}{" "}
                    <UtcTime at={new Date(a.at)} />
                  </li>
                ))}
            </ul>
          )}
          {report.candidate && !report.rollback && (
            <div className="mt-3">
              <p className="mb-2 text-sm text-slate-700">{t("rollbackIntro")}</p>
              <RollbackForm />
            </div>
          )}
        </section>
      </ClientMessages>
    </AuditDetailShell>
  );
}
