import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { AppHeader } from "@/components/app-header";
import { AuditFilters } from "@/components/audit/audit-filters";
import { AuditTable } from "@/components/audit/audit-table";
import { Pager } from "@/components/audit/pager";
import { ProbeStatusBanner } from "@/components/audit/probe-status-banner";
import { StatusChart } from "@/components/audit/status-chart";
import { PAGE_WIDTH } from "@/components/page-width";
import {
  type AuditRow,
  countAuditEventsByStatus,
  getPeopleByIds,
  keyOf,
  listAuditEvents,
} from "@/db/queries/audit";
import {
  auditHref,
  chartRange,
  cursorParam,
  exportHref,
  type FilterProblem,
  type PageParams,
  parsePageFilters,
} from "@/lib/audit/page-filters";
import { requireStaffPage } from "@/lib/audit/page-guard";
import { EFFECT_KINDS, effectAuditTool } from "@/lib/effects/kinds";
import { TOOLS } from "@/lib/tools/registry";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("audit");
  return { title: t("heading") };
}
export const dynamic = "force-dynamic";

const PAGE_SIZE = 50;

export default async function AuditPage({ searchParams }: { searchParams: Promise<PageParams> }) {
  const user = await requireStaffPage();
  const p = await parsePageFilters(await searchParams);
  const page: { rows: AuditRow[]; hasMore: boolean } = p.noMatch
    ? { rows: [], hasMore: false }
    : await listAuditEvents({
        filters: p.filters,
        before: p.before,
        after: p.after,
        limit: PAGE_SIZE,
      });
  const { rows } = page;
  // Moving newer from a page means there is an older one (the cursor row) and vice versa.
  const hasOlder = p.after ? true : page.hasMore;
  const hasNewer = p.after ? page.hasMore : p.before !== undefined;
  const first = rows[0];
  const last = rows.at(-1);
  const range = chartRange(p.filters);
  const counts = await countAuditEventsByStatus(range);
  const people = await getPeopleByIds({ ids: rows.flatMap((r) => (r.userId ? [r.userId] : [])) });
  const t = await getTranslations("audit");
  const problem = (p: FilterProblem) => {
    switch (p.code) {
      case "unknown_status":
        return t("problems.unknownStatus", { value: p.value });
      case "unknown_customer":
        return t("problems.unknownCustomer", { value: p.value });
      case "bad_from":
      case "bad_to":
        return t("problems.badDate", { value: p.value });
      case "reversed_dates":
        return t("problems.reversedDates");
      case "bad_cursor":
        return t("problems.badCursor");
    }
  };
  const href = (changes: Record<string, string | undefined>) => auditHref(p.form, changes);
  return (
    <>
      <AppHeader user={user} width="wide" />
      <main className={`${PAGE_WIDTH.wide} grid gap-4 py-6`}>
        <ProbeStatusBanner />
        <h1 className="text-xl font-semibold">{t("heading")}</h1>
        <p className="-mt-2 text-sm text-slate-600">{t("intro")}</p>
        <AuditFilters
          form={p.form}
          tools={[...TOOLS.map((t) => t.name), ...EFFECT_KINDS.map(effectAuditTool)]}
          exportHref={p.noMatch ? null : exportHref(p.filters)}
          clearChatHref={href({ chat: undefined })}
        />
        {p.problems.length > 0 && (
          <ul
            role="alert"
            className="rounded-md bg-amber-50 p-3 text-sm text-amber-900"
            data-testid="filter-problems"
          >
            {p.problems.map((pr) => (
              <li key={`${pr.code}-${"value" in pr ? pr.value : ""}`}>{problem(pr)}</li>
            ))}
          </ul>
        )}
        <StatusChart counts={counts} range={range} hrefFor={(status) => href({ status })} />
        <AuditTable rows={rows} people={people} />
        <Pager
          newerHref={hasNewer && first ? href({ after: cursorParam(keyOf(first)) }) : null}
          olderHref={hasOlder && last ? href({ before: cursorParam(keyOf(last)) }) : null}
          newestHref={p.before || p.after ? href({}) : null}
        />
      </main>
    </>
  );
}
