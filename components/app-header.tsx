import Link from "next/link";
import type { CurrentUser } from "@/lib/auth/session";
import { SignOutButton } from "./sign-out-button";

export function AppHeader({ user }: { user: CurrentUser }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <nav
        aria-label="Main"
        className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3 sm:gap-x-4"
      >
        <Link href="/" className="font-semibold text-brand-700">
          Returns Desk
        </Link>
        <Link href="/" className="text-sm text-slate-700 hover:underline">
          Orders
        </Link>
        {user.role === "customer" && (
          <Link
            href="/chat"
            className="text-sm text-slate-700 hover:underline"
            data-testid="nav-chat"
          >
            Chat
          </Link>
        )}
        {user.role === "staff" && (
          <Link
            href="/audit"
            className="text-sm text-slate-700 hover:underline"
            data-testid="nav-audit"
          >
            Audit
          </Link>
        )}
        {user.role === "staff" && (
          <Link
            href="/audit/metrics"
            className="text-sm text-slate-700 hover:underline"
            data-testid="nav-metrics"
          >
            Metrics
          </Link>
        )}
        <span
          className="ml-auto max-w-[5.5rem] truncate text-sm text-slate-600 sm:max-w-none"
          data-testid="current-user"
        >
          {user.name}
        </span>
        <SignOutButton />
      </nav>
    </header>
  );
}
