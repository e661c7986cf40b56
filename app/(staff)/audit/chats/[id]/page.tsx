import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { AuditDetailShell } from "@/components/audit/audit-detail-shell";
import { HandoffPanel } from "@/components/audit/handoff-panel";
import { TranscriptView } from "@/components/audit/transcript-view";
import { TriagePanel } from "@/components/audit/triage-panel";
import { UtcTime } from "@/components/audit/utc-time";
import { ClientMessages } from "@/components/client-messages";
import { requireStaffPage } from "@/lib/audit/page-guard";
import { loadTranscript } from "@/lib/audit/transcript";
import { getHandoffView } from "@/lib/chat/handoff";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("audit.meta");
  return { title: t("transcript") };
}
export const dynamic = "force-dynamic";

/** A customer's chat, read-only, for staff: transcript, its actions and the triage. */
export default async function StaffTranscriptPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireStaffPage();
  const { id } = await params;
  const data = await loadTranscript({ chatId: id });
  if (!data) notFound();
  const t = await getTranslations("audit");
  const handoff = await getHandoffView(data.chat.id);
  return (
    <AuditDetailShell user={user} crumb={t("crumbs.chat")} wide={false}>
      <header>
        <h1 className="text-xl font-semibold" data-testid="transcript-heading">
          {data.chat.title
            ? t("transcript.headingTitled", { title: data.chat.title })
            : t("transcript.heading")}
        </h1>
        <p className="text-sm text-slate-600">
          {data.customer ? `${data.customer.name} <${data.customer.email}>` : data.chat.userId} ·{" "}
          {t.rich("transcript.started", { time: () => <UtcTime at={data.chat.createdAt} /> })} ·{" "}
          {data.chat.embedOrigin && (
            <span data-testid="transcript-embedded">
              {data.chat.embedOriginVouched
                ? t("transcript.embeddedOn", { origin: data.chat.embedOrigin })
                : t("transcript.embeddedOnUnverified", { origin: data.chat.embedOrigin })}{" "}
              ·{" "}
            </span>
          )}
          {data.customer?.storeCustomerId && (
            <span data-testid="transcript-store-customer" translate="no">
              {t("transcript.storeCustomer", { id: data.customer.storeCustomerId })} ·{" "}
            </span>
          )}
          {t("transcript.readOnly")} ·{" "}
          <Link
            href={`/audit?chat=${encodeURIComponent(data.chat.id)}`}
            className="text-brand-700 underline"
            data-testid="chat-events-link"
          >
            {t("transcript.chatEvents")}
          </Link>
        </p>
      </header>
      {/* The triage button runs in the browser. */}
      <ClientMessages namespaces={["audit"]}>
        <TriagePanel
          chatId={data.chat.id}
          triage={data.triage}
          lastSeq={data.messages.at(-1)?.seq ?? 0}
        />
      </ClientMessages>
      {data.actions.length > 0 && (
        <section
          aria-labelledby="actions-heading"
          className="rounded-xl border border-slate-200 bg-white p-4"
        >
          <h2 id="actions-heading" className="mb-2 text-lg font-semibold">
            {t("transcript.actionsHeading")}
          </h2>
          <ul className="grid gap-1 text-sm">
            {data.actions.map((a) => (
              <li key={a.id}>
                <Link
                  href={`/audit/actions/${a.id}`}
                  className="text-brand-700 underline"
                  data-testid="chat-action-link"
                  translate="no"
                >
                  {a.tool} {JSON.stringify(a.arguments)}
                </Link>{" "}
                · {t("actionStatus", { status: a.status })} ·{" "}
                {t.rich("transcript.proposed", { time: () => <UtcTime at={a.createdAt} /> })}
              </li>
            ))}
          </ul>
        </section>
      )}
      {handoff && (
        <ClientMessages namespaces={["handoffs"]}>
          <HandoffPanel chatId={data.chat.id} status={handoff.status} />
        </ClientMessages>
      )}
      <TranscriptView messages={data.messages} />
      {data.truncated && <p className="text-sm text-slate-600">{t("transcript.truncated")}</p>}
    </AuditDetailShell>
  );
}
