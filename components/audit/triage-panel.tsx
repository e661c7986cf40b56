import type { StoredTriage } from "@/lib/ai/triage-schema";
import { own } from "@/lib/own";
import { formatUtc } from "./format";
import { TriageButton } from "./triage-button";

const URGENCY_STYLE = {
  low: "bg-slate-200 text-slate-800",
  medium: "bg-amber-100 text-amber-900",
  high: "bg-red-100 text-red-900",
} as const;

/** The stored triage of a chat (or none yet), and the button that (re)computes it. */
export function TriagePanel({
  chatId,
  triage,
  lastSeq,
}: {
  chatId: string;
  triage: StoredTriage | null;
  lastSeq: number;
}) {
  const outdated = triage !== null && triage.throughSeq < lastSeq;
  return (
    <section
      aria-labelledby="triage-heading"
      className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4"
      data-testid="triage-panel"
    >
      <h2 id="triage-heading" className="text-lg font-semibold">
        Triage
      </h2>
      {triage ? (
        <>
          <dl className="grid grid-cols-[8rem_1fr] gap-x-4 gap-y-1 text-sm" data-testid="triage">
            <dt className="text-slate-600">Category</dt>
            <dd data-testid="triage-category">{triage.triage.category.replace("_", " ")}</dd>
            <dt className="text-slate-600">Sentiment</dt>
            <dd data-testid="triage-sentiment">{triage.triage.sentiment}</dd>
            <dt className="text-slate-600">Urgency</dt>
            <dd>
              <span
                className={`rounded-full px-2 py-0.5 text-xs font-medium ${own(URGENCY_STYLE, triage.triage.urgency) ?? ""}`}
                data-testid="triage-urgency"
              >
                {triage.triage.urgency}
              </span>
            </dd>
            <dt className="text-slate-600">Summary</dt>
            <dd data-testid="triage-summary">{triage.triage.summary}</dd>
            <dt className="text-slate-600">Next step</dt>
            <dd data-testid="triage-next-step">{triage.triage.nextStep}</dd>
          </dl>
          <p className="text-xs text-slate-600">
            {triage.method === "model" ? "By the model" : "By rules (offline)"} {triage.model.id},{" "}
            {triage.promptVersion}, at {formatUtc(triage.generatedAt)}.
            {outdated && (
              <strong className="ml-1 text-amber-800" data-testid="triage-outdated">
                The chat has newer messages than this triage.
              </strong>
            )}
          </p>
        </>
      ) : (
        <p className="text-sm text-slate-600" data-testid="triage-none">
          Not triaged yet.
        </p>
      )}
      <TriageButton chatId={chatId} label={triage ? "Triage again" : "Triage this chat"} />
    </section>
  );
}
