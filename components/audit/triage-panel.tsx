import { useTranslations } from "next-intl";
import type { StoredTriage } from "@/lib/api/triage";
import { own } from "@/lib/own";
import { TriageButton } from "./triage-button";
import { UtcTime } from "./utc-time";

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
  const t = useTranslations("audit.triage");
  const outdated = triage !== null && triage.throughSeq < lastSeq;
  return (
    <section
      aria-labelledby="triage-heading"
      className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4"
      data-testid="triage-panel"
    >
      <h2 id="triage-heading" className="text-lg font-semibold">
        {t("heading")}
      </h2>
      {triage ? (
        <>
          <dl className="grid grid-cols-[8rem_1fr] gap-x-4 gap-y-1 text-sm" data-testid="triage">
            <dt className="text-slate-600">{t("category")}</dt>
            <dd data-testid="triage-category" data-value={triage.triage.category}>
              {t("categories", { category: triage.triage.category })}
            </dd>
            <dt className="text-slate-600">{t("sentiment")}</dt>
            <dd data-testid="triage-sentiment" data-value={triage.triage.sentiment}>
              {t("sentiments", { sentiment: triage.triage.sentiment })}
            </dd>
            <dt className="text-slate-600">{t("urgency")}</dt>
            <dd>
              <span
                className={`rounded-full px-2 py-0.5 text-xs font-medium ${own(URGENCY_STYLE, triage.triage.urgency) ?? ""}`}
                data-testid="triage-urgency"
                data-value={triage.triage.urgency}
              >
                {t("urgencies", { urgency: triage.triage.urgency })}
              </span>
            </dd>
            <dt className="text-slate-600">{t("summary")}</dt>
            <dd data-testid="triage-summary">{triage.triage.summary}</dd>
            <dt className="text-slate-600">{t("nextStep")}</dt>
            <dd data-testid="triage-next-step">{triage.triage.nextStep}</dd>
          </dl>
          <p className="text-xs text-slate-600">
            {t.rich("by", {
              method: triage.method,
              model: triage.model.id,
              prompt: triage.promptVersion,
              time: () => <UtcTime at={triage.generatedAt} />,
            })}
            {outdated && (
              <strong className="ml-1 text-amber-800" data-testid="triage-outdated">
                {t("outdated")}
              </strong>
            )}
          </p>
        </>
      ) : (
        <p className="text-sm text-slate-600" data-testid="triage-none">
          {t("none")}
        </p>
      )}
      <TriageButton chatId={chatId} again={triage !== null} />
    </section>
  );
}
