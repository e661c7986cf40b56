import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { AppHeader } from "@/components/app-header";
import { StaffTable } from "@/components/audit/staff-table";
import { UtcTime } from "@/components/audit/utc-time";
import { PAGE_WIDTH } from "@/components/page-width";
import { requireStaffPage } from "@/lib/audit/page-guard";
import { listHandoffQueue } from "@/lib/chat/handoff";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("handoffs");
  return { title: t("title") };
}
export const dynamic = "force-dynamic";

/** The staff queue of chats a person has taken over (GET /api/staff/handoffs, as a page). */
export default async function HandoffsPage() {
  const user = await requireStaffPage();
  const { handoffs } = await listHandoffQueue();
  const t = await getTranslations("handoffs");
  return (
    <>
      <AppHeader user={user} width="wide" />
      <main className={`${PAGE_WIDTH.wide} grid gap-4 py-6`}>
        <h1 className="text-xl font-semibold">{t("title")}</h1>
        <p className="-mt-2 text-sm text-slate-600">{t("intro")}</p>
        {handoffs.length === 0 ? (
          <p className="text-slate-600" data-testid="handoffs-empty">
            {t("none")}
          </p>
        ) : (
          <StaffTable
            testId="handoffs-table"
            rows={handoffs}
            rowKey={(h) => h.chatId}
            rowData={(h) => ({ "data-status": h.status })}
            columns={[
              {
                key: "since",
                header: t("since"),
                cell: (h) => (
                  <>
                    <UtcTime at={new Date(h.since)} /> ·{" "}
                    <span className="font-medium">{t("status", { status: h.status })}</span>
                  </>
                ),
              },
              {
                key: "chat",
                header: t("chat"),
                cell: (h) => (
                  <Link
                    href={`/audit/chats/${encodeURIComponent(h.chatId)}`}
                    className="text-brand-700 underline"
                    data-testid="handoff-link"
                  >
                    {h.chatTitle ?? t("untitled")}
                  </Link>
                ),
              },
              {
                key: "customer",
                header: t("customer"),
                cell: (h) => (h.customer ? `${h.customer.name} <${h.customer.email}>` : "—"),
              },
              { key: "staff", header: t("staff"), cell: (h) => h.staff?.name ?? "—" },
            ]}
          />
        )}
      </main>
    </>
  );
}
