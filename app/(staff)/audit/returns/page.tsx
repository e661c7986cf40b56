import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { AuditDetailShell } from "@/components/audit/audit-detail-shell";
import { StaffPostButton } from "@/components/audit/staff-post-button";
import { UtcTime } from "@/components/audit/utc-time";
import { ClientMessages } from "@/components/client-messages";
import { requireStaffPage } from "@/lib/audit/page-guard";
import { listStaffReturns } from "@/lib/returns/receive";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("audit.work");
  return { title: t("returnsTitle") };
}
export const dynamic = "force-dynamic";

/** Every return with its state (requested, received, refunded) and a "Mark received" button. */
export default async function ReturnsPage() {
  const user = await requireStaffPage();
  const t = await getTranslations("audit.work");
  const returns = await listStaffReturns();
  return (
    <AuditDetailShell user={user} crumb={t("returnsCrumb")}>
      {/* Its client components (buttons, forms) read the audit texts in the browser. */}
      <ClientMessages namespaces={["audit"]}>
        <h1 className="text-xl font-semibold">{t("returnsTitle")}</h1>
        {returns.length === 0 ? (
          <p className="text-sm text-slate-600">{t("returnsEmpty")}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" data-testid="returns">
              <thead className="text-xs text-slate-600">
                <tr>
                  <th scope="col" className="pr-3">
                    {t("request")}
                  </th>
                  <th scope="col" className="pr-3">
                    {t("order")}
                  </th>
                  <th scope="col" className="pr-3">
                    {t("state")}
                  </th>
                  <th scope="col" className="pr-3">
                    {t("refund")}
                  </th>
                  <th scope="col" className="pr-3">
                    {t("received")}
                  </th>
                  <th scope="col">{t("do")}</th>
                </tr>
              </thead>
              <tbody>
                {returns.map((r) => (
                  <tr
                    key={r.id}
                    className="border-t border-slate-100 align-top"
                    data-return={r.id}
                    data-state={r.state}
                    data-testid="return-row"
                  >
                    <td className="py-2 pr-3">
                      {r.actionId ? (
                        <Link
                          href={`/audit/actions/${encodeURIComponent(r.actionId)}`}
                          className="text-brand-700 underline"
                        >
                          <code translate="no">{r.id}</code>
                        </Link>
                      ) : (
                        <code translate="no">{r.id}</code>
                      )}
                    </td>
                    <td className="py-2 pr-3">{r.orderId}</td>
                    <td className="py-2 pr-3" data-testid="return-state">
                      {t("stateName", { state: r.state })}
                    </td>
                    <td className="py-2 pr-3">
                      {r.refund.status ? t("refundStatus", { status: r.refund.status }) : "—"}
                    </td>
                    <td className="py-2 pr-3">
                      {r.receivedAt ? <UtcTime at={r.receivedAt} /> : "—"}
                    </td>
                    <td className="py-2">
                      {r.state === "requested" && (
                        <StaffPostButton
                          url={`/api/staff/returns/${encodeURIComponent(r.id)}/receive`}
                          label={t("markReceived")}
                          busyLabel={t("marking")}
                          testId="mark-received"
                        />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </ClientMessages>
    </AuditDetailShell>
  );
}
