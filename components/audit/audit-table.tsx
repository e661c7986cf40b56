import Link from "next/link";
import { useTranslations } from "next-intl";
import type { AuditRow, PersonRow } from "@/db/queries/audit";
import { effectOutcome, errorShown, nothingWritten, shortId } from "./format";
import { StatusBadge } from "./status-badge";
import { Duration, UtcTime } from "./utc-time";

/**
 * An identifier that may break after its separators ("create_return_request",
 * "effect:payment.refund"), never inside a word: so the table fits its box at 1280 px.
 */
function BreakableId({ id }: { id: string }) {
  const parts = id.split(/(?<=[_:.])/);
  return parts.map((p, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string, in order
    <span key={i}>
      {p}
      {i < parts.length - 1 && <wbr />}
    </span>
  ));
}

/** The audit table. Each row's time is the link to its details (one tab stop per row). */
export function AuditTable({ rows, people }: { rows: AuditRow[]; people: Map<string, PersonRow> }) {
  const t = useTranslations("audit");
  if (rows.length === 0) {
    return (
      <p
        className="rounded-xl border border-slate-200 bg-white p-6 text-slate-600"
        data-testid="audit-empty"
      >
        {t("table.empty")}
      </p>
    );
  }
  const headings = [
    t("table.time"),
    t("table.customer"),
    t("table.chat"),
    t("table.tool"),
    t("table.access"),
    t("table.status"),
    t("table.error"),
    t("table.duration"),
    t("table.prompt"),
    t("table.model"),
  ];
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
      <table className="w-full min-w-[64rem] text-left text-sm" data-testid="audit-table">
        <caption className="sr-only">{t("table.caption")}</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase text-slate-600">
          <tr>
            {headings.map((h) => (
              <th key={h} scope="col" className="px-3 py-2 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => {
            const person = r.userId ? people.get(r.userId) : undefined;
            const outcome = effectOutcome(r);
            return (
              <tr
                key={r.id}
                className="hover:bg-slate-50"
                data-testid="audit-row"
                data-event-id={r.id}
              >
                <td className="px-3 py-2">
                  <Link
                    href={`/audit/events/${r.id}`}
                    className="text-brand-700 underline"
                    data-testid="audit-row-link"
                  >
                    <UtcTime at={r.at} />
                  </Link>
                </td>
                <td
                  className="px-3 py-2 [overflow-wrap:anywhere]"
                  data-testid="audit-customer"
                  translate="no"
                >
                  {person ? (
                    <span title={person.name}>{person.email}</span>
                  ) : (
                    <span className="text-slate-500">{r.userId ? shortId(r.userId) : "—"}</span>
                  )}
                </td>
                <td className="px-3 py-2" translate="no">
                  {r.chatId ? (
                    <Link href={`/audit/chats/${r.chatId}`} className="underline" title={r.chatId}>
                      {shortId(r.chatId)}
                    </Link>
                  ) : (
                    "—"
                  )}
                </td>
                {/* Identifiers (tool names, error codes, prompt and model ids) are data. */}
                <td className="px-3 py-2 font-mono text-xs" data-testid="audit-tool" translate="no">
                  <BreakableId id={r.tool} />
                </td>
                <td className="px-3 py-2">{r.access ? t("access", { access: r.access }) : "—"}</td>
                <td className="px-3 py-2">
                  <StatusBadge status={r.status} />
                  {nothingWritten(r) && (
                    <span
                      className="ml-2 text-xs text-slate-600"
                      data-testid="audit-nothing-written"
                    >
                      {t("nothingWritten")}
                    </span>
                  )}
                  {outcome && (
                    <span
                      className="ml-2 font-mono text-xs text-slate-600"
                      data-testid="audit-effect-outcome"
                      translate="no"
                    >
                      {outcome}
                    </span>
                  )}
                </td>
                <td
                  className="px-3 py-2 font-mono text-xs"
                  translate="no"
                  data-testid="audit-error"
                >
                  {errorShown(r) ?? "—"}
                </td>
                <td className="whitespace-nowrap px-3 py-2 tabular-nums">
                  <Duration ms={r.durationMs} />
                </td>
                <td className="px-3 py-2 text-xs [overflow-wrap:anywhere]" translate="no">
                  {r.promptVersion ?? "—"}
                </td>
                <td className="px-3 py-2 text-xs [overflow-wrap:anywhere]" translate="no">
                  {r.model ?? "—"}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
