import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { openAlerts } from "@/lib/alerts";
import type { CurrentUser } from "@/lib/auth/session";
import { LocaleSwitch } from "./locale-switch";
import { PAGE_WIDTH, type PageWidth } from "./page-width";
import { SignOutButton } from "./sign-out-button";
import { StaffAlerts } from "./staff-alerts";

/**
 * Below which width a link folds away: on a phone the row must fit Sign out at 375 px, so staff
 * reach the pages past the audit table from there. Full class names, so Tailwind sees them.
 */
const SHOWN_FROM = {
  always: "",
  sm: "hidden sm:inline",
  md: "hidden md:inline",
  lg: "hidden lg:inline",
} as const;

type NavLink = { id: string; href: string; label: string; from: keyof typeof SHOWN_FROM };

/** `width` is the page's own (page-width.ts), so the header's edges line up with the content. */
export async function AppHeader({
  user,
  width = "page",
}: {
  user: CurrentUser;
  width?: PageWidth;
}) {
  const t = await getTranslations("header");
  const links: NavLink[] =
    user.role === "staff"
      ? [
          { id: "audit", href: "/audit", label: t("audit"), from: "always" },
          { id: "approvals", href: "/audit/approvals", label: t("approvals"), from: "sm" },
          { id: "metrics", href: "/audit/metrics", label: t("metrics"), from: "sm" },
          { id: "returns", href: "/audit/returns", label: t("returns"), from: "md" },
          { id: "queue", href: "/audit/queue", label: t("queue"), from: "md" },
          { id: "handoffs", href: "/audit/handoffs", label: t("handoffs"), from: "md" },
          { id: "candidate", href: "/audit/candidate", label: t("candidate"), from: "lg" },
        ]
      : [{ id: "chat", href: "/chat", label: t("chat"), from: "always" }];
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
        {links.map((l) => (
          <Link
            key={l.id}
            href={l.href}
            prefetch={false}
            className={`shrink-0 text-sm text-slate-700 hover:underline ${SHOWN_FROM[l.from]}`}
            data-testid={`nav-${l.id}`}
          >
            {l.label}
          </Link>
        ))}
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
      {/* Unacknowledged alerts show on every staff page until someone acknowledges them. */}
      {user.role === "staff" && <StaffAlerts alerts={await openAlerts()} />}
    </header>
  );
}
