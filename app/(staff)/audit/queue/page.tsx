import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { AuditDetailShell } from "@/components/audit/audit-detail-shell";
import { ResolveForm } from "@/components/audit/resolve-form";
import { StaffPostButton } from "@/components/audit/staff-post-button";
import { StaffTable } from "@/components/audit/staff-table";
import { UtcTime } from "@/components/audit/utc-time";
import { ClientMessages } from "@/components/client-messages";
import { requireStaffPage } from "@/lib/audit/page-guard";
import { listCanaries, listQueue } from "@/lib/work-queue/queue";

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
  const [effects, canaries] = await Promise.all([
    listQueue({ statuses: ["failed", "needs_attention"] }),
    listCanaries(),
  ]);
  return (
    <AuditDetailShell user={user} crumb={t("queueCrumb")}>
      {/* Its client components (buttons, forms) read the audit texts in the browser. */}
      <ClientMessages namespaces={["audit"]}>
        <h1 className="text-xl font-semibold">{t("queueTitle")}</h1>
        <p className="text-sm text-slate-600">{t("queueIntro")}</p>
        {canaries.length > 0 && (
          <section className="grid gap-2" aria-labelledby="canaries-title">
            <h2 id="canaries-title" className="text-lg font-semibold">
              {t("canaryTitle")}
            </h2>
            <p className="text-sm text-slate-600">{t("canaryIntro")}</p>
            <StaffTable
              testId="canaries"
              rows={canaries}
              rowKey={(c) => `${c.kind}:${c.fingerprint}`}
              rowData={(c) => ({
                "data-testid": "canary-row",
                "data-canary-status": c.status,
                "data-kind": c.kind,
              })}
              columns={[
                {
                  key: "started",
                  header: t("canaryStarted"),
                  cell: (c) => <UtcTime at={c.startedAt} />,
                },
                {
                  key: "kind",
                  header: t("kind"),
                  cell: (c) => (
                    <code className="text-xs" translate="no">
                      {c.kind}
                    </code>
                  ),
                },
                { key: "provider", header: t("canaryProvider"), cell: (c) => c.provider },
                {
                  key: "fingerprint",
                  header: t("canaryFingerprint"),
                  cell: (c) => (
                    <code className="text-xs" translate="no">
                      {c.fingerprint}
                    </code>
                  ),
                },
                {
                  key: "status",
                  header: t("status"),
                  cell: (c) => (
                    <>
                      {t("canaryState", { status: c.status })}
                      <div className="text-xs text-slate-600">
                        {t("canaryProgress", { confirmed: c.confirmed, required: c.required })}
                      </div>
                    </>
                  ),
                },
                {
                  key: "effect",
                  header: t("canaryEffect"),
                  cell: (c) => {
                    const id = c.currentEffectId ?? c.failedEffectId;
                    return id ? (
                      <>
                        <code className="text-xs" translate="no">
                          {id}
                        </code>
                        {c.lastErrorCode && c.status === "held" && (
                          <div className="text-xs" translate="no">
                            {c.lastErrorCode}
                          </div>
                        )}
                      </>
                    ) : (
                      "—"
                    );
                  },
                },
              ]}
            />
          </section>
        )}
        {effects.length === 0 ? (
          <p className="text-sm text-slate-600" data-testid="queue-empty">
            {t("queueEmpty")}
          </p>
        ) : (
          <StaffTable
            testId="queue"
            rows={effects}
            rowKey={(e) => e.id}
            rowData={(e) => ({ "data-effect": e.id, "data-testid": "queue-row" })}
            columns={[
              { key: "created", header: t("created"), cell: (e) => <UtcTime at={e.createdAt} /> },
              {
                key: "action",
                header: t("action"),
                cell: (e) => (
                  <>
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
                  </>
                ),
              },
              { key: "customer", header: t("customer"), cell: (e) => e.customer?.email ?? "—" },
              {
                key: "kind",
                header: t("kind"),
                cell: (e) => (
                  <code className="text-xs" translate="no">
                    {e.kind}
                  </code>
                ),
              },
              {
                key: "status",
                header: t("status"),
                cell: (e) => t("statusName", { status: e.status }),
              },
              { key: "attempts", header: t("attempts"), numeric: true, cell: (e) => e.attempts },
              {
                key: "lastError",
                header: t("lastError"),
                cell: (e) =>
                  e.lastErrorCode ? (
                    <code className="text-xs" translate="no">
                      {e.lastErrorCode}
                    </code>
                  ) : (
                    "—"
                  ),
              },
              {
                key: "do",
                header: t("do"),
                cell: (e) => (
                  <div className="grid gap-2">
                    <StaffPostButton
                      url={`/api/staff/effects/${encodeURIComponent(e.id)}/retry`}
                      body={{ updatedAt: e.updatedAt }}
                      label={t("retry")}
                      busyLabel={t("retrying")}
                      testId="retry-effect"
                    />
                    <ResolveForm effectId={e.id} />
                  </div>
                ),
              },
            ]}
          />
        )}
      </ClientMessages>
    </AuditDetailShell>
  );
}
