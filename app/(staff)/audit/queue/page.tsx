import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { AuditDetailShell } from "@/components/audit/audit-detail-shell";
import { ResolveForm } from "@/components/audit/resolve-form";
import { StaffPostButton } from "@/components/audit/staff-post-button";
import { UtcTime } from "@/components/audit/utc-time";
import { ClientMessages } from "@/components/client-messages";
import { requireStaffPage } from "@/lib/audit/page-guard";
import { listQueue } from "@/lib/work-queue/queue";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("audit.work");
  return { title: t("queueTitle") };
}
export const dynamic = "force-dynamic";

/**
 * The staff work queue: effects the relay is done with that need a person (failed,
 * needs_attention), newest first, each with Retry and Resolve by hand (docs/effects.md).
 */
export default async function QueuePage() {
  const user = await requireStaffPage();
  const t = await getTranslations("audit.work");
  const effects = await listQueue({ statuses: ["failed", "needs_attention"] });
  return (
    <AuditDetailShell user={user} crumb={t("queueCrumb")}>
      {/* Its client components (buttons, forms) read the audit texts in the browser. */}
      <ClientMessages namespaces={["audit"]}>
        <h1 className="text-xl font-semibold">{t("queueTitle")}</h1>
        <p className="text-sm text-slate-600">{t("queueIntro")}</p>
        {effects.length === 0 ? (
          <p className="text-sm text-slate-600" data-testid="queue-empty">
            {t("queueEmpty")}
          </p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" data-testid="queue">
              <thead className="text-xs text-slate-600">
                <tr>
                  <th scope="col" className="pr-3">
                    {t("created")}
                  </th>
                  <th scope="col" className="pr-3">
                    {t("action")}
                  </th>
                  <th scope="col" className="pr-3">
                    {t("customer")}
                  </th>
                  <th scope="col" className="pr-3">
                    {t("kind")}
                  </th>
                  <th scope="col" className="pr-3">
                    {t("status")}
                  </th>
                  <th scope="col" className="pr-3 text-right">
                    {t("attempts")}
                  </th>
                  <th scope="col" className="pr-3">
                    {t("lastError")}
                  </th>
                  <th scope="col">{t("do")}</th>
                </tr>
              </thead>
              <tbody>
                {effects.map((e) => (
                  <tr
                    key={e.id}
                    className="border-t border-slate-100 align-top"
                    data-effect={e.id}
                    data-testid="queue-row"
                  >
                    <td className="py-2 pr-3">
                      <UtcTime at={e.createdAt} />
                    </td>
                    <td className="py-2 pr-3">
                      <Link
                        href={`/audit/actions/${encodeURIComponent(e.actionId)}`}
                        className="text-brand-700 underline"
                      >
                        <code className="text-xs" translate="no">
                          {e.actionId}
                        </code>
                      </Link>
                      {e.tool && (
                        <div className="text-xs text-slate-600" translate="no">
                          {e.tool}
                        </div>
                      )}
                    </td>
                    <td className="py-2 pr-3">{e.customer?.email ?? "—"}</td>
                    <td className="py-2 pr-3">
                      <code className="text-xs" translate="no">
                        {e.kind}
                      </code>
                    </td>
                    <td className="py-2 pr-3">{t("statusName", { status: e.status })}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">{e.attempts}</td>
                    <td className="py-2 pr-3">
                      {e.lastErrorCode ? (
                        <code className="text-xs" translate="no">
                          {e.lastErrorCode}
                        </code>
                      ) : (
                        "—"
                      )}
                    </td>
                    <td className="grid gap-2 py-2">
                      <StaffPostButton
                        url={`/api/staff/effects/${encodeURIComponent(e.id)}/retry`}
                        body={{ updatedAt: e.updatedAt }}
                        label={t("retry")}
                        busyLabel={t("retrying")}
                        testId="retry-effect"
                      />
                      <ResolveForm effectId={e.id} />
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
