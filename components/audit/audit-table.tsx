import Link from "next/link";
import type { AuditRow, PersonRow } from "@/db/queries/audit";
import { formatDuration, formatUtc, NOTHING_WRITTEN, nothingWritten, shortId } from "./format";
import { StatusBadge } from "./status-badge";

/** The audit table. Each row's time is the link to its details (one tab stop per row). */
export function AuditTable({ rows, people }: { rows: AuditRow[]; people: Map<string, PersonRow> }) {
  if (rows.length === 0) {
    return (
      <p
        className="rounded-xl border border-slate-200 bg-white p-6 text-slate-600"
        data-testid="audit-empty"
      >
        No audit events match these filters.
      </p>
    );
  }
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
      <table className="w-full min-w-[64rem] text-left text-sm" data-testid="audit-table">
        <caption className="sr-only">Audit events, newest first</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase text-slate-600">
          <tr>
            {[
              "Time",
              "Customer",
              "Chat",
              "Tool",
              "Access",
              "Status",
              "Error",
              "Duration",
              "Prompt",
              "Model",
            ].map((h) => (
              <th key={h} scope="col" className="px-3 py-2 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => {
            const person = r.userId ? people.get(r.userId) : undefined;
            return (
              <tr
                key={r.id}
                className="hover:bg-slate-50"
                data-testid="audit-row"
                data-event-id={r.id}
              >
                <td className="whitespace-nowrap px-3 py-2">
                  <Link
                    href={`/audit/events/${r.id}`}
                    className="text-brand-700 underline"
                    data-testid="audit-row-link"
                  >
                    <time dateTime={r.at.toISOString()}>{formatUtc(r.at)}</time>
                  </Link>
                </td>
                <td className="px-3 py-2" data-testid="audit-customer">
                  {person ? (
                    <span title={person.name}>{person.email}</span>
                  ) : (
                    <span className="text-slate-500">{r.userId ? shortId(r.userId) : "—"}</span>
                  )}
                </td>
                <td className="px-3 py-2">
                  {r.chatId ? (
                    <Link href={`/audit/chats/${r.chatId}`} className="underline" title={r.chatId}>
                      {shortId(r.chatId)}
                    </Link>
                  ) : (
                    "—"
                  )}
                </td>
                <td className="px-3 py-2 font-mono text-xs" data-testid="audit-tool">
                  {r.tool}
                </td>
                <td className="px-3 py-2">{r.access ?? "—"}</td>
                <td className="px-3 py-2">
                  <StatusBadge status={r.status} />
                  {nothingWritten(r) && (
                    <span
                      className="ml-2 text-xs text-slate-600"
                      data-testid="audit-nothing-written"
                    >
                      {NOTHING_WRITTEN}
                    </span>
                  )}
                </td>
                <td className="px-3 py-2 font-mono text-xs">{r.errorCode ?? "—"}</td>
                <td className="whitespace-nowrap px-3 py-2 tabular-nums">
                  {formatDuration(r.durationMs)}
                </td>
                <td className="px-3 py-2 text-xs">{r.promptVersion ?? "—"}</td>
                <td className="px-3 py-2 text-xs">{r.model ?? "—"}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
