import Link from "next/link";
import { AUDIT_STATUSES } from "@/db/schema";
import type { FilterForm } from "@/lib/audit/page-filters";
import { STATUS_LABEL } from "./status-badge";

const input =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm focus:border-brand-600";

/**
 * A plain GET form: the filters live in the URL (shareable, back button works) and it works
 * without JavaScript. Submitting starts again from the newest page (no cursor fields).
 */
export function AuditFilters({
  form,
  tools,
  exportHref,
  clearChatHref,
}: {
  form: FilterForm;
  tools: readonly string[];
  exportHref: string | null;
  clearChatHref: string;
}) {
  return (
    <form
      method="get"
      action="/audit"
      className="grid grid-cols-2 gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-3 lg:grid-cols-6"
      data-testid="audit-filters"
      aria-label="Filter audit events"
    >
      <label className="text-sm text-slate-700">
        Status
        <select
          name="status"
          defaultValue={form.status}
          className={input}
          data-testid="filter-status"
        >
          <option value="">Any</option>
          {AUDIT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABEL[s]}
            </option>
          ))}
        </select>
      </label>
      <label className="text-sm text-slate-700">
        Tool
        <input
          name="tool"
          defaultValue={form.tool}
          list="audit-tools"
          placeholder="Any"
          className={input}
          data-testid="filter-tool"
        />
        <datalist id="audit-tools">
          {tools.map((t) => (
            <option key={t} value={t} />
          ))}
        </datalist>
      </label>
      <label className="text-sm text-slate-700">
        Customer email
        <input
          name="customer"
          type="email"
          defaultValue={form.customer}
          placeholder="anyone"
          className={input}
          data-testid="filter-customer"
        />
      </label>
      <label className="text-sm text-slate-700">
        From (UTC day)
        <input
          name="from"
          type="date"
          defaultValue={form.from}
          className={input}
          data-testid="filter-from"
        />
      </label>
      <label className="text-sm text-slate-700">
        To (UTC day, inclusive)
        <input
          name="to"
          type="date"
          defaultValue={form.to}
          className={input}
          data-testid="filter-to"
        />
      </label>
      {form.chat && <input type="hidden" name="chat" value={form.chat} />}
      <div className="flex items-end gap-2">
        <button
          type="submit"
          className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700"
          data-testid="filter-apply"
        >
          Apply
        </button>
        <Link href="/audit" className="px-1 py-1.5 text-sm text-slate-700 underline">
          Reset
        </Link>
      </div>
      <p className="col-span-full flex flex-wrap items-center gap-3 text-sm text-slate-600">
        {form.chat && (
          <span data-testid="filter-chat">
            Only chat <code className="text-xs">{form.chat}</code> (
            <Link href={clearChatHref} className="underline">
              all chats
            </Link>
            )
          </span>
        )}
        {exportHref && (
          <a
            href={exportHref}
            className="ml-auto text-brand-700 underline"
            data-testid="export-csv"
            download
          >
            Export these events as CSV
          </a>
        )}
      </p>
    </form>
  );
}
