import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { AppHeader } from "@/components/app-header";
import { ApprovalsSection } from "@/components/metrics/approvals-section";
import { DailyChart } from "@/components/metrics/daily-chart";
import { DriftChart } from "@/components/metrics/drift-chart";
import { EffectsSection } from "@/components/metrics/effects-section";
import { HandoffsSection } from "@/components/metrics/handoffs-section";
import { PAGE_WIDTH } from "@/components/page-width";
import { requireStaffPage } from "@/lib/audit/page-guard";
import { driftReport } from "@/lib/chat/candidate/drift";
import { approvalsReport } from "@/lib/metrics/approvals";
import { effectsReport } from "@/lib/metrics/effects";
import { handoffsReport } from "@/lib/metrics/handoffs";
import { MAX_RANGE_DAYS, metricsReport, parseMetricsRange } from "@/lib/metrics/report";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("metrics");
  return { title: t("title") };
}
export const dynamic = "force-dynamic";

// Numbers keep one format (digits grouped the English way, "12.5%") in both languages: staff
// compare them across screenshots and exports.
const pct = (v: number | null) => (v === null ? "–" : `${(v * 100).toFixed(1)}%`);
const num = (v: number | null, digits = 0) =>
  v === null ? "–" : v.toLocaleString("en-US", { maximumFractionDigits: digits });
const ms = (v: number | undefined) => (v === undefined ? "–" : `${num(v)} ms`);

function Stat({
  id,
  label,
  value,
  note,
}: {
  id: string;
  label: string;
  value: string;
  note?: string;
}) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-3">
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums" data-testid={`metric-${id}`}>
        {value}
      </dd>
      {note && <dd className="text-xs text-slate-500">{note}</dd>}
    </div>
  );
}

function Section({ title, children, id }: { title: string; children: ReactNode; id: string }) {
  return (
    <section className="rounded-xl border border-slate-200 bg-white p-4" aria-labelledby={id}>
      <h2 id={id} className="mb-2 text-sm font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Table({
  head,
  rows,
  testId,
}: {
  head: string[];
  rows: (string | number)[][];
  testId: string;
}) {
  return (
    <table className="w-full text-sm" data-testid={testId}>
      <thead>
        <tr className="text-left text-xs text-slate-600">
          {head.map((h, i) => (
            <th key={h} scope="col" className={i > 0 ? "text-right" : ""}>
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={String(r[0])} className="border-t border-slate-100">
            {r.map((c, i) => (
              <td key={head[i]} className={i > 0 ? "text-right tabular-nums" : ""}>
                {c}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default async function MetricsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requireStaffPage();
  const t = await getTranslations("metrics");
  const range = parseMetricsRange(await searchParams);
  const r = await metricsReport(range);
  return (
    <>
      {/* The header at the page's own width, so its edges line up with the content. */}
      <AppHeader user={user} width="wide" />
      <main className={`${PAGE_WIDTH.wide} grid gap-4 py-6`}>
        <div className="flex flex-wrap items-baseline gap-3">
          <h1 className="text-xl font-semibold">{t("title")}</h1>
          <Link href="/audit" className="text-sm text-slate-700 hover:underline">
            {t("auditLink")}
          </Link>
        </div>
        <p className="-mt-2 text-sm text-slate-600">
          {t("intro", { from: r.range.from, to: r.range.to, days: r.range.days })}
        </p>
        <form
          method="get"
          className="flex flex-wrap items-end gap-3 text-sm"
          data-testid="metrics-range"
        >
          <label className="grid gap-1">
            {t("from")}
            <input
              type="date"
              name="from"
              defaultValue={range.from}
              className="rounded border border-slate-300 px-2 py-1"
            />
          </label>
          <label className="grid gap-1">
            {t("to")}
            <input
              type="date"
              name="to"
              defaultValue={range.to}
              className="rounded border border-slate-300 px-2 py-1"
            />
          </label>
          <button type="submit" className="rounded bg-slate-800 px-3 py-1.5 text-white">
            {t("show")}
          </button>
        </form>
        {range.problems.length > 0 && (
          <ul role="alert" className="rounded-md bg-amber-50 p-3 text-sm text-amber-900">
            {range.problems.map((m) => (
              <li key={m}>{t("problem", { problem: m, max: MAX_RANGE_DAYS })}</li>
            ))}
          </ul>
        )}
        <dl className="grid grid-cols-2 gap-3 md:grid-cols-4 lg:grid-cols-6">
          <Stat id="turns" label={t("turns")} value={num(r.turns)} />
          <Stat id="chats" label={t("chats")} value={num(r.chats)} />
          <Stat
            id="latency"
            label={t("latency")}
            value={`${ms(r.latencyMs?.p50)} / ${ms(r.latencyMs?.p95)}`}
          />
          <Stat id="ttft" label={t("ttft")} value={`${ms(r.ttftMs?.p50)} / ${ms(r.ttftMs?.p95)}`} />
          <Stat
            id="tokens-turn"
            label={t("tokensPerTurn")}
            value={num(r.tokens.perTurn)}
            note={t("tokensSplit", { input: num(r.tokens.input), output: num(r.tokens.output) })}
          />
          <Stat id="tokens-chat" label={t("tokensPerChat")} value={num(r.tokens.perChat)} />
          <Stat id="tool-share" label={t("toolShare")} value={pct(r.toolTurnShare)} />
          <Stat id="proposals" label={t("proposals")} value={num(r.proposals)} />
          <Stat
            id="confirm-rate"
            label={t("confirmRate")}
            value={pct(r.confirmRate)}
            note={t("confirmRateNote")}
          />
          <Stat
            id="policy-refusals"
            label={t("policyRefusals")}
            value={pct(r.policyRefusals.share)}
            note={t("policyRefusalsNote", {
              count: num(r.policyRefusals.count),
              total: num(r.policyRefusals.writeCalls),
            })}
          />
          <Stat id="tool-calls" label={t("toolCalls")} value={num(r.toolCalls)} />
        </dl>
        <Section title={t("byDay")} id="by-day">
          <DailyChart
            series={r.series}
            labels={{
              turns: t("turns"),
              proposals: t("proposals"),
              confirmed: t("confirmed"),
              turnErrors: t("failedTurns"),
              tokens: t("tokens"),
            }}
          />
          <details className="mt-2 text-sm">
            <summary className="cursor-pointer text-slate-700">{t("byDayTable")}</summary>
            <Table
              testId="metrics-days"
              head={[
                t("day"),
                t("turns"),
                t("failedTurns"),
                t("tokens"),
                t("proposals"),
                t("confirmed"),
              ]}
              rows={r.series.map((d) => [
                d.day,
                d.turns,
                d.turnErrors,
                d.tokens,
                d.proposals,
                d.confirmed,
              ])}
            />
          </details>
        </Section>
        <div className="grid gap-4 md:grid-cols-2">
          <Section title={t("toolMix")} id="tool-mix">
            <Table
              testId="metrics-tool-mix"
              head={[t("tool"), t("calls"), t("share")]}
              rows={r.toolMix.map((t) => [t.tool, t.calls, pct(t.share)])}
            />
          </Section>
          <Section title={t("decisions")} id="decisions">
            <Table
              testId="metrics-decisions"
              head={[t("decision"), t("proposals")]}
              rows={Object.entries(r.decisions).map(([k, n]) => [
                t("decisionName", { decision: k }),
                n,
              ])}
            />
          </Section>
          <Section title={t("toolErrors")} id="tool-errors">
            <Table
              testId="metrics-tool-errors"
              head={[t("kind"), t("calls"), t("shareOfToolCalls")]}
              rows={r.toolErrors.map((e) => [e.kind, e.count, pct(e.share)])}
            />
          </Section>
          <Section title={t("turnErrors")} id="turn-errors">
            <Table
              testId="metrics-turn-errors"
              head={[t("kind"), t("turns"), t("shareOfTurns")]}
              rows={r.turnErrors.map((e) => [e.kind, e.count, pct(e.share)])}
            />
          </Section>
          <Section title={t("models")} id="models">
            <Table
              testId="metrics-models"
              head={[t("model"), t("turns")]}
              rows={r.models.map((m) => [m.model, m.turns])}
            />
          </Section>
        </div>
        <DriftSection />
        <EffectsSection report={await effectsReport(range)} />
        <HandoffsSection report={await handoffsReport(range)} />
        <ApprovalsSection report={await approvalsReport(range)} />
      </main>
    </>
  );
}

/** The drift corridor's latest windows per profile (GET /api/staff/drift has the same). */
async function DriftSection() {
  const t = await getTranslations("metrics");
  const drift = await driftReport();
  return (
    <Section title={t("drift")} id="drift">
      <p className="mb-2 text-sm text-slate-600">
        {t("driftIntro", { seconds: drift.windowSeconds })}
      </p>
      {drift.profiles.length === 0 && <p className="text-sm text-slate-600">{t("driftNone")}</p>}
      <div className="grid gap-4" data-testid="drift-profiles">
        {drift.profiles.slice(0, 3).map((p) => (
          <div key={p.fingerprint} className="grid gap-2">
            <h3 className="text-sm font-medium">
              {t("driftProfile", {
                role: p.role,
                fingerprint: p.fingerprint,
                windows: p.windows.length,
                run: p.breachRun,
              })}
            </h3>
            <div className="grid gap-4 md:grid-cols-2" aria-hidden="true">
              <figure>
                <DriftChart profile={p} signal="latencyP95Ms" format={(v) => `${num(v)} ms`} />
                <figcaption className="text-center text-xs text-slate-700">
                  {t("driftLatency")}
                </figcaption>
              </figure>
              <figure>
                <DriftChart profile={p} signal="errorRate" format={(v) => pct(v)} />
                <figcaption className="text-center text-xs text-slate-700">
                  {t("driftErrors")}
                </figcaption>
              </figure>
              <figure>
                <DriftChart profile={p} signal="payloadP95Bytes" format={(v) => `${num(v)} B`} />
                <figcaption className="text-center text-xs text-slate-700">
                  {t("driftPayload")}
                </figcaption>
              </figure>
              <figure>
                <DriftChart profile={p} signal="toolMixDivergence" format={(v) => num(v, 2)} />
                <figcaption className="text-center text-xs text-slate-700">
                  {t("driftToolMix")}
                </figcaption>
              </figure>
            </div>
          </div>
        ))}
      </div>
    </Section>
  );
}
