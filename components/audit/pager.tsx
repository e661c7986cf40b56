import Link from "next/link";

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
  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center gap-2" data-testid="audit-pager">
      {newestHref && (
        <Link href={newestHref} className={link} data-testid="page-newest">
          Newest
        </Link>
      )}
      {newerHref ? (
        <Link href={newerHref} className={link} rel="prev" data-testid="page-newer">
          ← Newer
        </Link>
      ) : (
        <span className={off} aria-disabled="true">
          ← Newer
        </span>
      )}
      {olderHref ? (
        <Link href={olderHref} className={link} rel="next" data-testid="page-older">
          Next (older) →
        </Link>
      ) : (
        <span className={off} aria-disabled="true">
          Next (older) →
        </span>
      )}
    </nav>
  );
}
