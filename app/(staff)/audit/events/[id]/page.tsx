import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { ActionLifeView } from "@/components/audit/action-life";
import { AuditDetailShell } from "@/components/audit/audit-detail-shell";
import { isErrorStatus, nothingWritten } from "@/components/audit/format";
import { JsonView } from "@/components/audit/json-view";
import { StatusBadge } from "@/components/audit/status-badge";
import { Duration, UtcTime } from "@/components/audit/utc-time";
import { getAuditEvent, getPeopleByIds } from "@/db/queries/audit";
import { requireStaffPage } from "@/lib/audit/page-guard";
import { loadActionLife, staffActionSummary } from "@/lib/audit/timeline";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("audit.meta");
  return { title: t("event") };
}
export const dynamic = "force-dynamic";

export default async function AuditEventPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireStaffPage();
  const { id } = await params;
  if (!/^[1-9]\d{0,15}$/.test(id)) notFound();
  const event = await getAuditEvent({ id: Number(id) });
  if (!event) notFound();
  const t = await getTranslations("audit");
  const lang = (await getLocale()) === "ru" ? "ru" : "en";
  const person = event.userId
    ? (await getPeopleByIds({ ids: [event.userId] })).get(event.userId)
    : undefined;
  const life = event.actionId ? await loadActionLife({ actionId: event.actionId }) : null;
  const code = (value: string | null) =>
    value === null ? "—" : <code translate="no">{value}</code>;
  const facts: [string, React.ReactNode][] = [
    [t("table.time"), <UtcTime key="t" at={event.at} />],
    [t("table.customer"), person ? `${person.name} <${person.email}>` : (event.userId ?? "—")],
    [t("table.tool"), code(event.tool)],
    [t("table.access"), event.access ? t("access", { access: event.access }) : t("event.noAccess")],
    [
      t("table.status"),
      <span key="s">
        <StatusBadge status={event.status} />
        {nothingWritten(event) && (
          <span className="ml-2 text-xs text-slate-600" data-testid="audit-nothing-written">
            {t("nothingWritten")}
          </span>
        )}
      </span>,
    ],
    // A code that only names the step (a proposal's) is not called an error.
    [t(isErrorStatus(event.status) ? "event.errorCode" : "event.stepCode"), code(event.errorCode)],
    [t("table.duration"), <Duration key="d" ms={event.durationMs} />],
    [t("event.promptVersion"), code(event.promptVersion)],
    [t("table.model"), code(event.model)],
    [t("event.toolCallId"), code(event.toolCallId)],
  ];
  return (
    <AuditDetailShell user={user} crumb={t("crumbs.event", { id: event.id })}>
      <h1 className="text-xl font-semibold" data-testid="event-heading">
        {t("event.heading", { id: event.id })}
      </h1>
      <section className="grid gap-4 rounded-xl border border-slate-200 bg-white p-4">
        <dl
          className="grid grid-cols-[10rem_1fr] gap-x-4 gap-y-1 text-sm"
          data-testid="event-facts"
        >
          {facts.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-slate-600">{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
        {event.chatId && (
          <p className="flex flex-wrap gap-4 text-sm">
            <Link
              href={`/audit/chats/${event.chatId}`}
              className="text-brand-700 underline"
              data-testid="event-transcript-link"
            >
              {t("openTranscript")}
            </Link>
            <Link
              href={`/audit?chat=${encodeURIComponent(event.chatId)}`}
              className="text-brand-700 underline"
            >
              {t("event.chatEvents")}
            </Link>
          </p>
        )}
        <div className="grid gap-4 md:grid-cols-2">
          <JsonView label={t("event.arguments")} value={event.arguments} testId="event-arguments" />
          <JsonView label={t("action.result")} value={event.result} testId="event-result" />
        </div>
      </section>
      {life ? (
        <ActionLifeView
          life={life}
          shownAs={(await staffActionSummary(life.action, lang)).shownAs}
        />
      ) : (
        event.actionId && (
          <p className="text-sm text-slate-600">{t("event.actionGone", { id: event.actionId })}</p>
        )
      )}
    </AuditDetailShell>
  );
}
