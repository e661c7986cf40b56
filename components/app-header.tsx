import Link from "next/link";
import { getTranslations } from "next-intl/server";
import type { CurrentUser } from "@/lib/auth/session";
import { LocaleSwitch } from "./locale-switch";
import { SignOutButton } from "./sign-out-button";

export async function AppHeader({ user }: { user: CurrentUser }) {
  const t = await getTranslations("header");
  return (
    <header className="border-b border-slate-200 bg-white">
      <nav
        aria-label={t("nav")}
        className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3 sm:gap-x-4"
      >
        <Link href="/" className="font-semibold text-brand-700">
          {t("brand")}
        </Link>
        <Link href="/" className="text-sm text-slate-700 hover:underline">
          {t("orders")}
        </Link>
        {user.role === "customer" && (
          <Link
            href="/chat"
            className="text-sm text-slate-700 hover:underline"
            data-testid="nav-chat"
          >
            {t("chat")}
          </Link>
        )}
        {user.role === "staff" && (
          <Link
            href="/audit"
            className="text-sm text-slate-700 hover:underline"
            data-testid="nav-audit"
          >
            {t("audit")}
          </Link>
        )}
        {user.role === "staff" && (
          <Link
            href="/audit/metrics"
            className="text-sm text-slate-700 hover:underline"
            data-testid="nav-metrics"
          >
            {t("metrics")}
          </Link>
        )}
        <span
          className="ml-auto max-w-[5.5rem] truncate text-sm text-slate-600 sm:max-w-none"
          data-testid="current-user"
        >
          {user.name}
        </span>
        <LocaleSwitch />
        <SignOutButton />
      </nav>
    </header>
  );
}
