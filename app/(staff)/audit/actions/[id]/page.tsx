import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { ActionLifeView } from "@/components/audit/action-life";
import { AuditDetailShell } from "@/components/audit/audit-detail-shell";
import { MarkShippedButton } from "@/components/audit/mark-shipped-button";
import { StaffPostButton } from "@/components/audit/staff-post-button";
import { ClientMessages } from "@/components/client-messages";
import { requireStaffPage } from "@/lib/audit/page-guard";
import { loadActionLife, staffActionSummary } from "@/lib/audit/timeline";
import { staffReturnOfAction } from "@/lib/returns/receive";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("audit.meta");
  return { title: t("action") };
}
export const dynamic = "force-dynamic";

/** One pending action's life, linked from the transcript view. */
export default async function AuditActionPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireStaffPage();
  const { id } = await params;
  const life = await loadActionLife({ actionId: id });
  if (!life) notFound();
  const t = await getTranslations("audit.crumbs");
  const tWork = await getTranslations("audit.work");
  // The return this action created, if any: its state, and the button for its parcel.
  const ret = await staffReturnOfAction(id);
  const locale = await getLocale();
  const { shownAs, customerNote, processingOrder } = await staffActionSummary(
    life.action,
    locale === "ru" ? "ru" : "en",
    life.effects,
  );
  return (
    <AuditDetailShell user={user} crumb={t("action")}>
      {/* Its client components (buttons, forms) read the audit texts in the browser. */}
      <ClientMessages namespaces={["audit"]}>
        <ActionLifeView
          life={life}
          shownAs={shownAs}
          customerNote={customerNote}
          orderTools={
            processingOrder ? (
              <MarkShippedButton orderId={processingOrder} />
            ) : ret ? (
              <div className="flex flex-wrap items-center gap-3" data-testid="action-return">
                <span className="text-sm" data-state={ret.state} data-testid="action-return-state">
                  {tWork("returnHeading", { id: ret.id, state: ret.state })}
                  {ret.refund.status &&
                    ` · ${tWork("refund")}: ${tWork("refundStatus", { status: ret.refund.status })}`}
                </span>
                {ret.state === "requested" && (
                  <StaffPostButton
                    url={`/api/staff/returns/${encodeURIComponent(ret.id)}/receive`}
                    label={tWork("markReceived")}
                    busyLabel={tWork("marking")}
                    testId="mark-received"
                  />
                )}
              </div>
            ) : null
          }
        />
      </ClientMessages>
    </AuditDetailShell>
  );
}
