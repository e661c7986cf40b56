import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { AuditDetailShell } from "@/components/audit/audit-detail-shell";
import { StaffPostButton } from "@/components/audit/staff-post-button";
import { StaffTable } from "@/components/audit/staff-table";
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
          <StaffTable
            testId="returns"
            rows={returns}
            rowKey={(r) => r.id}
            rowData={(r) => ({
              "data-return": r.id,
              "data-state": r.state,
              "data-testid": "return-row",
            })}
            columns={[
              {
                key: "request",
                header: t("request"),
                cell: (r) =>
                  r.actionId ? (
                    <Link
                      href={`/audit/actions/${encodeURIComponent(r.actionId)}`}
                      className="text-brand-700 underline"
                    >
                      <code translate="no">{r.id}</code>
                    </Link>
                  ) : (
                    <code translate="no">{r.id}</code>
                  ),
              },
              { key: "order", header: t("order"), cell: (r) => r.orderId },
              {
                key: "state",
                header: t("state"),
                testId: "return-state",
                cell: (r) => t("stateName", { state: r.state }),
              },
              {
                key: "refund",
                header: t("refund"),
                cell: (r) =>
                  r.refund.status ? t("refundStatus", { status: r.refund.status }) : "—",
              },
              {
                key: "received",
                header: t("received"),
                cell: (r) => (r.receivedAt ? <UtcTime at={r.receivedAt} /> : "—"),
              },
              {
                key: "do",
                header: t("do"),
                cell: (r) =>
                  r.state === "requested" && (
                    <StaffPostButton
                      url={`/api/staff/returns/${encodeURIComponent(r.id)}/receive`}
                      label={t("markReceived")}
                      busyLabel={t("marking")}
                      testId="mark-received"
                    />
                  ),
              },
            ]}
          />
        )}
      </ClientMessages>
    </AuditDetailShell>
  );
}
