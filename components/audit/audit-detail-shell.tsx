import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import type { CurrentUser } from "@/lib/auth/session";
import { AppHeader } from "../app-header";
import { PAGE_WIDTH } from "../page-width";
import { ProbeStatusBanner } from "./probe-status-banner";

/** The frame of every audit detail page: header, a breadcrumb back to the table, the content. */
export function AuditDetailShell({
  user,
  crumb,
  wide = true,
  children,
}: {
  user: CurrentUser;
  crumb: ReactNode;
  wide?: boolean;
  children: ReactNode;
}) {
  const t = useTranslations("audit");
  const width = wide ? "wide" : "page";
  return (
    <>
      <AppHeader user={user} width={width} />
      <main className={`${PAGE_WIDTH[width]} grid gap-4 py-6`}>
        <nav aria-label={t("breadcrumb")} className="text-sm">
          <Link href="/audit" className="text-brand-700 underline">
            {t("heading")}
          </Link>{" "}
          / {crumb}
        </nav>
        <ProbeStatusBanner />
        {children}
      </main>
    </>
  );
}
