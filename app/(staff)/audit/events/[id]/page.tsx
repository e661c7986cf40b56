import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ActionLifeView } from "@/components/audit/action-life";
import { AuditDetailShell } from "@/components/audit/audit-detail-shell";
import {
  formatDuration,
  formatUtc,
  NOTHING_WRITTEN,
  nothingWritten,
} from "@/components/audit/format";
import { JsonView } from "@/components/audit/json-view";
import { StatusBadge } from "@/components/audit/status-badge";
import { getAuditEvent, getPeopleByIds } from "@/db/queries/audit";
import { requireStaffPage } from "@/lib/audit/page-guard";
import { loadActionLife, staffActionSummary } from "@/lib/audit/timeline";

export const metadata: Metadata = { title: "Audit event" };
export const dynamic = "force-dynamic";

export default async function AuditEventPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireStaffPage();
  const { id } = await params;
  if (!/^[1-9]\d{0,15}$/.test(id)) notFound();
  const event = getAuditEvent({ id: Number(id) });
  if (!event) notFound();
  const person = event.userId
    ? getPeopleByIds({ ids: [event.userId] }).get(event.userId)
    : undefined;
  const life = event.actionId ? loadActionLife({ actionId: event.actionId }) : null;
  const facts: [string, React.ReactNode][] = [
    [
      "Time",
      <time key="t" dateTime={event.at.toISOString()}>
        {formatUtc(event.at)}
      </time>,
    ],
    ["Customer", person ? `${person.name} <${person.email}>` : (event.userId ?? "—")],
    ["Tool", <code key="tool">{event.tool}</code>],
    ["Access", event.access ?? "— (not a registered tool)"],
    [
      "Status",
      <span key="s">
        <StatusBadge status={event.status} />
        {nothingWritten(event) && (
          <span className="ml-2 text-xs text-slate-600" data-testid="audit-nothing-written">
            {NOTHING_WRITTEN}
          </span>
        )}
      </span>,
    ],
    ["Error code", event.errorCode ?? "—"],
    ["Duration", formatDuration(event.durationMs)],
    ["Prompt version", event.promptVersion ?? "—"],
    ["Model", event.model ?? "—"],
    ["Tool call id", event.toolCallId ?? "—"],
  ];
  return (
    <AuditDetailShell user={user} crumb={`event ${event.id}`}>
      <h1 className="text-xl font-semibold" data-testid="event-heading">
        Audit event {event.id}
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
              Open the chat transcript
            </Link>
            <Link
              href={`/audit?chat=${encodeURIComponent(event.chatId)}`}
              className="text-brand-700 underline"
            >
              All events of this chat
            </Link>
          </p>
        )}
        <div className="grid gap-4 md:grid-cols-2">
          <JsonView label="Arguments" value={event.arguments} testId="event-arguments" />
          <JsonView label="Result" value={event.result} testId="event-result" />
        </div>
      </section>
      {life ? (
        <ActionLifeView life={life} shownAs={staffActionSummary(life.action).shownAs} />
      ) : (
        event.actionId && (
          <p className="text-sm text-slate-600">The action {event.actionId} no longer exists.</p>
        )
      )}
    </AuditDetailShell>
  );
}
