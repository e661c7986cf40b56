import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { AppHeader } from "@/components/app-header";
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
          <table className="w-full text-left text-sm" data-testid="handoffs-table">
            <thead className="text-xs text-slate-600">
              <tr>
                <th className="py-1 pr-3">{t("since")}</th>
                <th className="py-1 pr-3">{t("chat")}</th>
                <th className="py-1 pr-3">{t("customer")}</th>
                <th className="py-1 pr-3">{t("staff")}</th>
              </tr>
            </thead>
            <tbody>
              {handoffs.map((h) => (
                <tr key={h.chatId} className="border-t border-slate-200" data-status={h.status}>
                  <td className="py-2 pr-3">
                    <UtcTime at={new Date(h.since)} /> ·{" "}
                    <span className="font-medium">{t("status", { status: h.status })}</span>
                  </td>
                  <td className="py-2 pr-3">
                    <Link
                      href={`/audit/chats/${encodeURIComponent(h.chatId)}`}
                      className="text-brand-700 underline"
                      data-testid="handoff-link"
                    >
                      {h.chatTitle ?? t("untitled")}
                    </Link>
                  </td>
                  <td className="py-2 pr-3">
                    {h.customer ? `${h.customer.name} <${h.customer.email}>` : "—"}
                  </td>
                  <td className="py-2 pr-3">{h.staff?.name ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </main>
    </>
  );
}
