import Link from "next/link";
import { getTranslations } from "next-intl/server";
import type { CurrentUser } from "@/lib/auth/session";
import { LocaleSwitch } from "./locale-switch";
import { PAGE_WIDTH, type PageWidth } from "./page-width";
import { SignOutButton } from "./sign-out-button";

/** `width` is the page's own (page-width.ts), so the header's edges line up with the content. */
export async function AppHeader({
  user,
  width = "page",
}: {
  user: CurrentUser;
  width?: PageWidth;
}) {
  const t = await getTranslations("header");
  // The header's links do not prefetch (prefetch={false}). Every page here is dynamic, so a
  // prefetch brings only the loading state, and Next 16.4.6 has a race in it: a click while that
  // prefetch is still in flight takes the prefetch's empty <head> ([null, null]) as the page's
  // final one and never applies the navigation's own, so the page's <title> never arrives
  // (vercel/next.js#98684). The header prefetched all its links as soon as a page loaded, so a
  // click soon after fell in that window, more often the slower the server (the e2e suite on
  // PostgreSQL). tests/e2e/metrics.spec.ts holds the prefetch to check it.
  return (
    <header className="border-b border-slate-200 bg-white">
      <nav
        aria-label={t("nav")}
        className={`${PAGE_WIDTH[width]} flex items-center gap-x-3 py-3 sm:gap-x-4`}
      >
        <Link
          href="/"
          prefetch={false}
          className="shrink-0 whitespace-nowrap font-semibold text-brand-700"
        >
          {t("brand")}
        </Link>
        {/* On a phone the brand (also a link to the orders) stands in for it, and staff reach the
            pages past the audit table from there: the row must fit Sign out at 375 px. */}
        <Link
          href="/"
          prefetch={false}
          className="hidden shrink-0 text-sm text-slate-700 hover:underline sm:inline"
        >
          {t("orders")}
        </Link>
        {user.role === "customer" && (
          <Link
            href="/chat"
            prefetch={false}
            className="shrink-0 text-sm text-slate-700 hover:underline"
            data-testid="nav-chat"
          >
            {t("chat")}
          </Link>
        )}
        {user.role === "staff" && (
          <Link
            href="/audit"
            prefetch={false}
            className="shrink-0 text-sm text-slate-700 hover:underline"
            data-testid="nav-audit"
          >
            {t("audit")}
          </Link>
        )}
        {user.role === "staff" && (
          <Link
            href="/audit/approvals"
            prefetch={false}
            className="hidden shrink-0 text-sm text-slate-700 hover:underline sm:inline"
            data-testid="nav-approvals"
          >
            {t("approvals")}
          </Link>
        )}
        {user.role === "staff" && (
          <Link
            href="/audit/metrics"
            prefetch={false}
            className="hidden shrink-0 text-sm text-slate-700 hover:underline sm:inline"
            data-testid="nav-metrics"
          >
            {t("metrics")}
          </Link>
        )}
        {user.role === "staff" && (
          <Link
            href="/audit/returns"
            prefetch={false}
            className="hidden shrink-0 text-sm text-slate-700 hover:underline md:inline"
            data-testid="nav-returns"
          >
            {t("returns")}
          </Link>
        )}
        {user.role === "staff" && (
          <Link
            href="/audit/queue"
            prefetch={false}
            className="hidden shrink-0 text-sm text-slate-700 hover:underline md:inline"
            data-testid="nav-queue"
          >
            {t("queue")}
          </Link>
        )}
        {user.role === "staff" && (
          <Link
            href="/audit/handoffs"
            prefetch={false}
            className="hidden shrink-0 text-sm text-slate-700 hover:underline md:inline"
            data-testid="nav-handoffs"
          >
            {t("handoffs")}
          </Link>
        )}
        <div className="ml-auto flex min-w-0 items-center gap-x-3 sm:gap-x-4">
          {/* Hidden on a phone, where the row has room for the controls only. */}
          <span
            className="hidden min-w-0 truncate text-sm text-slate-600 sm:inline"
            data-testid="current-user"
          >
            {user.name}
          </span>
          <LocaleSwitch />
          <SignOutButton />
        </div>
      </nav>
    </header>
  );
}
