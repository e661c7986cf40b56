import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AuditDetailShell } from "@/components/audit/audit-detail-shell";
import { formatUtc } from "@/components/audit/format";
import { TranscriptView } from "@/components/audit/transcript-view";
import { TriagePanel } from "@/components/audit/triage-panel";
import { requireStaffPage } from "@/lib/audit/page-guard";
import { loadTranscript } from "@/lib/audit/transcript";

export const metadata: Metadata = { title: "Chat transcript" };
export const dynamic = "force-dynamic";

/** A customer's chat, read-only, for staff: transcript, its actions and the triage. */
export default async function StaffTranscriptPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireStaffPage();
  const { id } = await params;
  const t = loadTranscript({ chatId: id });
  if (!t) notFound();
  return (
    <AuditDetailShell user={user} crumb="chat" wide={false}>
      <header>
        <h1 className="text-xl font-semibold" data-testid="transcript-heading">
          Chat transcript{t.chat.title ? `: ${t.chat.title}` : ""}
        </h1>
        <p className="text-sm text-slate-600">
          {t.customer ? `${t.customer.name} <${t.customer.email}>` : t.chat.userId} · started{" "}
          {formatUtc(t.chat.createdAt)} · read-only ·{" "}
          <Link
            href={`/audit?chat=${encodeURIComponent(t.chat.id)}`}
            className="text-brand-700 underline"
            data-testid="chat-events-link"
          >
            audit events of this chat
          </Link>
        </p>
      </header>
      <TriagePanel chatId={t.chat.id} triage={t.triage} lastSeq={t.messages.at(-1)?.seq ?? 0} />
      {t.actions.length > 0 && (
        <section
          aria-labelledby="actions-heading"
          className="rounded-xl border border-slate-200 bg-white p-4"
        >
          <h2 id="actions-heading" className="mb-2 text-lg font-semibold">
            Actions in this chat
          </h2>
          <ul className="grid gap-1 text-sm">
            {t.actions.map((a) => (
              <li key={a.id}>
                <Link
                  href={`/audit/actions/${a.id}`}
                  className="text-brand-700 underline"
                  data-testid="chat-action-link"
                >
                  {a.tool} {JSON.stringify(a.arguments)}
                </Link>{" "}
                · {a.status} · proposed {formatUtc(a.createdAt)}
              </li>
            ))}
          </ul>
        </section>
      )}
      <TranscriptView messages={t.messages} />
      {t.truncated && <p className="text-sm text-slate-600">Only the first messages are shown.</p>}
    </AuditDetailShell>
  );
}
