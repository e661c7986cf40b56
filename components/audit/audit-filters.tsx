import Link from "next/link";
import { useTranslations } from "next-intl";
import { AUDIT_STATUSES } from "@/db/schema";
import type { FilterForm } from "@/lib/audit/page-filters";

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
  const t = useTranslations("audit");
  return (
    <form
      method="get"
      action="/audit"
      className="grid grid-cols-2 gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-3 lg:grid-cols-6"
      data-testid="audit-filters"
      aria-label={t("filters.label")}
    >
      <label className="text-sm text-slate-700">
        {t("filters.status")}
        <select
          name="status"
          defaultValue={form.status}
          className={input}
          data-testid="filter-status"
        >
          <option value="">{t("filters.any")}</option>
          {AUDIT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t("status", { status: s })}
            </option>
          ))}
        </select>
      </label>
      <label className="text-sm text-slate-700">
        {t("filters.tool")}
        <input
          name="tool"
          defaultValue={form.tool}
          list="audit-tools"
          placeholder={t("filters.any")}
          className={input}
          data-testid="filter-tool"
        />
        <datalist id="audit-tools">
          {tools.map((tool) => (
            <option key={tool} value={tool} />
          ))}
        </datalist>
      </label>
      <label className="text-sm text-slate-700">
        {t("filters.customer")}
        <input
          name="customer"
          type="email"
          defaultValue={form.customer}
          placeholder={t("filters.anyone")}
          className={input}
          data-testid="filter-customer"
        />
      </label>
      <label className="text-sm text-slate-700">
        {t("filters.from")}
        <input
          name="from"
          type="date"
          defaultValue={form.from}
          className={input}
          data-testid="filter-from"
        />
      </label>
      <label className="text-sm text-slate-700">
        {t("filters.to")}
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
          {t("filters.apply")}
        </button>
        <Link href="/audit" className="px-1 py-1.5 text-sm text-slate-700 underline">
          {t("filters.reset")}
        </Link>
      </div>
      <p className="col-span-full flex flex-wrap items-center gap-3 text-sm text-slate-600">
        {form.chat && (
          <span data-testid="filter-chat">
            {t.rich("filters.onlyChat", {
              chat: form.chat,
              code: (chunks) => (
                <code className="text-xs" translate="no">
                  {chunks}
                </code>
              ),
              link: (chunks) => (
                <Link href={clearChatHref} className="underline">
                  {chunks}
                </Link>
              ),
            })}
          </span>
        )}
        {exportHref && (
          <a
            href={exportHref}
            className="ml-auto text-brand-700 underline"
            data-testid="export-csv"
            download
          >
            {t("filters.export")}
          </a>
        )}
      </p>
    </form>
  );
}
