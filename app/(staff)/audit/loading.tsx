import { useTranslations } from "next-intl";
import { PAGE_WIDTH } from "@/components/page-width";

/** Shown while the audit page queries run (the route streams this first). */
export default function AuditLoading() {
  const t = useTranslations("audit");
  return (
    <main className={`${PAGE_WIDTH.wide} grid gap-4 py-6`} aria-busy="true">
      <p role="status" className="text-sm text-slate-600" data-testid="audit-loading">
        {t("loading")}
      </p>
      <div className="h-24 animate-pulse rounded-xl bg-slate-200" />
      <div className="h-40 animate-pulse rounded-xl bg-slate-200" />
      <div className="h-96 animate-pulse rounded-xl bg-slate-200" />
    </main>
  );
}
