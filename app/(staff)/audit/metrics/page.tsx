import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { AppHeader } from "@/components/app-header";
import { DailyChart } from "@/components/metrics/daily-chart";
import { requireStaffPage } from "@/lib/audit/page-guard";
import { type MetricsReport, metricsReport, parseMetricsRange } from "@/lib/metrics/report";

export const metadata: Metadata = { title: "Metrics" };
export const dynamic = "force-dynamic";

const pct = (v: number | null) => (v === null ? "–" : `${(v * 100).toFixed(1)}%`);
const num = (v: number | null, digits = 0) =>
  v === null ? "–" : v.toLocaleString("en-US", { maximumFractionDigits: digits });
const ms = (v: number | undefined) => (v === undefined ? "–" : `${num(v)} ms`);

const DECISION_LABEL: Record<keyof MetricsReport["decisions"], string> = {
  confirmed: "Confirmed",
  cancelled: "Cancelled",
  expired: "Expired",
  superseded: "Superseded",
  stale: "Stale (order changed)",
  failed: "Failed",
};

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
  const range = parseMetricsRange(await searchParams);
  const r = metricsReport(range);
  return (
    <>
      <AppHeader user={user} />
      <main className="mx-auto grid max-w-7xl gap-4 px-4 py-6">
        <div className="flex flex-wrap items-baseline gap-3">
          <h1 className="text-xl font-semibold">Model metrics</h1>
          <Link href="/audit" className="text-sm text-slate-700 hover:underline">
            Audit trail
          </Link>
        </div>
        <p className="-mt-2 text-sm text-slate-600">
          What the assistant costs and how it behaves, per UTC day, from {r.range.from} to{" "}
          {r.range.to} ({r.range.days} {r.range.days === 1 ? "day" : "days"}). Latencies are
          approximate (within about 12%).
        </p>
        <form
          method="get"
          className="flex flex-wrap items-end gap-3 text-sm"
          data-testid="metrics-range"
        >
          <label className="grid gap-1">
            From
            <input
              type="date"
              name="from"
              defaultValue={range.from}
              className="rounded border border-slate-300 px-2 py-1"
            />
          </label>
          <label className="grid gap-1">
            To
            <input
              type="date"
              name="to"
              defaultValue={range.to}
              className="rounded border border-slate-300 px-2 py-1"
            />
          </label>
          <button type="submit" className="rounded bg-slate-800 px-3 py-1.5 text-white">
            Show
          </button>
        </form>
        {range.problems.length > 0 && (
          <ul role="alert" className="rounded-md bg-amber-50 p-3 text-sm text-amber-900">
            {range.problems.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        )}
        <dl className="grid grid-cols-2 gap-3 md:grid-cols-4 lg:grid-cols-6">
          <Stat id="turns" label="Turns" value={num(r.turns)} />
          <Stat id="chats" label="Chats started" value={num(r.chats)} />
          <Stat
            id="latency"
            label="Model latency p50 / p95"
            value={`${ms(r.latencyMs?.p50)} / ${ms(r.latencyMs?.p95)}`}
          />
          <Stat
            id="ttft"
            label="First token p50 / p95"
            value={`${ms(r.ttftMs?.p50)} / ${ms(r.ttftMs?.p95)}`}
          />
          <Stat
            id="tokens-turn"
            label="Tokens per turn"
            value={num(r.tokens.perTurn)}
            note={`${num(r.tokens.input)} in, ${num(r.tokens.output)} out`}
          />
          <Stat id="tokens-chat" label="Tokens per chat" value={num(r.tokens.perChat)} />
          <Stat id="tool-share" label="Turns using tools" value={pct(r.toolTurnShare)} />
          <Stat id="proposals" label="Proposals" value={num(r.proposals)} />
          <Stat
            id="confirm-rate"
            label="Confirm rate"
            value={pct(r.confirmRate)}
            note="of decided proposals"
          />
          <Stat
            id="policy-refusals"
            label="Policy refusals"
            value={pct(r.policyRefusals.share)}
            note={`${num(r.policyRefusals.count)} of ${num(r.policyRefusals.writeCalls)} write requests`}
          />
          <Stat id="tool-calls" label="Tool calls" value={num(r.toolCalls)} />
        </dl>
        <Section title="By day" id="by-day">
          <DailyChart series={r.series} />
          <details className="mt-2 text-sm">
            <summary className="cursor-pointer text-slate-700">The numbers by day</summary>
            <Table
              testId="metrics-days"
              head={["Day", "Turns", "Failed turns", "Tokens", "Proposals", "Confirmed"]}
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
          <Section title="Tool mix (calls the model made)" id="tool-mix">
            <Table
              testId="metrics-tool-mix"
              head={["Tool", "Calls", "Share"]}
              rows={r.toolMix.map((t) => [t.tool, t.calls, pct(t.share)])}
            />
          </Section>
          <Section title="How proposals were decided" id="decisions">
            <Table
              testId="metrics-decisions"
              head={["Decision", "Proposals"]}
              rows={Object.entries(r.decisions).map(([k, n]) => [
                DECISION_LABEL[k as keyof typeof DECISION_LABEL],
                n,
              ])}
            />
          </Section>
          <Section title="Tool call errors by kind" id="tool-errors">
            <Table
              testId="metrics-tool-errors"
              head={["Kind", "Calls", "Share of tool calls"]}
              rows={r.toolErrors.map((e) => [e.kind, e.count, pct(e.share)])}
            />
          </Section>
          <Section title="Failed turns by kind" id="turn-errors">
            <Table
              testId="metrics-turn-errors"
              head={["Kind", "Turns", "Share of turns"]}
              rows={r.turnErrors.map((e) => [e.kind, e.count, pct(e.share)])}
            />
          </Section>
          <Section title="Models and prompt versions (watch for drift)" id="models">
            <Table
              testId="metrics-models"
              head={["Model and prompt", "Turns"]}
              rows={r.models.map((m) => [m.model, m.turns])}
            />
          </Section>
        </div>
      </main>
    </>
  );
}
