import Link from "next/link";
import { useTranslations } from "next-intl";

const link = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-50";
const off = "rounded-md border border-slate-200 px-3 py-1.5 text-sm text-slate-400";

/** Keyset paging: "Newer" and "Older" move one page from the rows shown; "Newest" restarts. */
export function Pager({
  newerHref,
  olderHref,
  newestHref,
}: {
  newerHref: string | null;
  olderHref: string | null;
  newestHref: string | null;
}) {
  const t = useTranslations("audit.pager");
  return (
    <nav
      aria-label={t("label")}
      className="flex flex-wrap items-center gap-2"
      data-testid="audit-pager"
    >
      {newestHref && (
        <Link href={newestHref} className={link} data-testid="page-newest">
          {t("newest")}
        </Link>
      )}
      {newerHref ? (
        <Link href={newerHref} className={link} rel="prev" data-testid="page-newer">
          {t("newer")}
        </Link>
      ) : (
        <span className={off} aria-disabled="true">
          {t("newer")}
        </span>
      )}
      {olderHref ? (
        <Link href={olderHref} className={link} rel="next" data-testid="page-older">
          {t("older")}
        </Link>
      ) : (
        <span className={off} aria-disabled="true">
          {t("older")}
        </span>
      )}
    </nav>
  );
}
