import type { Metadata } from "next";
import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";
import { AppHeader } from "@/components/app-header";
import { ApprovalButtons } from "@/components/audit/approval-buttons";
import { UtcTime } from "@/components/audit/utc-time";
import { ClientMessages } from "@/components/client-messages";
import { ActionFacts } from "@/components/confirm-card/action-facts";
import { PAGE_WIDTH } from "@/components/page-width";
import { requireStaffPage } from "@/lib/audit/page-guard";
import { approvalQueue } from "@/lib/chat/approvals";
import { isLocale } from "@/lib/i18n/locales";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("approval.staff");
  return { title: t("title") };
}
export const dynamic = "force-dynamic";

/**
 * Staff's approval queue (four eyes): refunds above APPROVAL_THRESHOLD_MINOR that the
 * customer confirmed, oldest first, each with exactly what approving executes (the tool's own
 * description of the stored plan), the customer, and the deadline (APPROVAL_TTL_HOURS).
 */
export default async function ApprovalsPage() {
  const user = await requireStaffPage();
  const t = await getTranslations("approval.staff");
  const locale = await getLocale();
  const items = await approvalQueue(isLocale(locale) ? locale : "en");
  return (
    <>
      <AppHeader user={user} />
      {/* Its client components (buttons, forms) read these texts in the browser. */}
      <ClientMessages namespaces={["approval"]}>
        <main className={`${PAGE_WIDTH.page} grid gap-4 py-6`}>
          <h1 className="text-xl font-semibold">{t("title")}</h1>
          <p className="-mt-2 text-sm text-slate-600">{t("intro")}</p>
          {items.length === 0 ? (
            <p className="text-sm text-slate-600" data-testid="approvals-empty">
              {t("empty")}
            </p>
          ) : (
            <ul className="grid gap-4" data-testid="approvals">
              {items.map(({ action, customer, confirmedAt }) => (
                <li
                  key={action.id}
                  className="rounded-xl border border-slate-200 bg-white p-4"
                  data-testid="approval"
                  data-action-id={action.id}
                >
                  {/* Staff words: what the action is and what approving it runs, not the
                      customer's "confirm your request". */}
                  <h2 className="font-semibold">
                    <Link href={`/audit/actions/${action.id}`} className="hover:underline">
                      {action.view.subject}
                    </Link>
                  </h2>
                  <p className="mt-1 text-sm text-slate-700" data-testid="approval-summary">
                    {action.view.approval}
                  </p>
                  <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
                    <dt className="text-slate-600">{t("customer")}</dt>
                    <dd>
                      {customer.name} ({customer.email})
                    </dd>
                    <dt className="text-slate-600">{t("confirmedAt")}</dt>
                    <dd>
                      <UtcTime at={confirmedAt} />
                    </dd>
                    <dt className="text-slate-600">{t("deadline")}</dt>
                    <dd>
                      <UtcTime at={action.expiresAt} />
                    </dd>
                  </dl>
                  <ActionFacts view={action.view} />
                  <ApprovalButtons actionId={action.id} />
                </li>
              ))}
            </ul>
          )}
        </main>
      </ClientMessages>
    </>
  );
}
