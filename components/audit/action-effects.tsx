import Link from "next/link";
import { useTranslations } from "next-intl";
import type { EffectRow } from "@/db/queries/effects";
import type { TimelineStep } from "@/lib/audit/timeline";
import { UtcTime } from "./utc-time";

/**
 * The action's effects outside our database (a cancellation's refund), one row each: its status,
 * attempts, last error and the provider's reference, and under it every attempt its audit events
 * recorded (outcome, error, event link). docs/effects.md has the states.
 */
export function ActionEffects({
  effects,
  steps,
}: {
  effects: readonly EffectRow[];
  steps: readonly TimelineStep[];
}) {
  const t = useTranslations("audit.effects");
  if (effects.length === 0) return null;
  const code = (value: string | null) =>
    value ? (
      <code className="text-xs" translate="no">
        {value}
      </code>
    ) : (
      "—"
    );
  return (
    <div>
      <h3 className="mb-2 text-sm font-medium text-slate-700" id="action-effects-heading">
        {t("heading")}
      </h3>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" aria-labelledby="action-effects-heading">
          <thead className="text-xs text-slate-600">
            <tr>
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
              <th scope="col" className="pr-3">
                {t("providerRef")}
              </th>
              <th scope="col">{t("times")}</th>
            </tr>
          </thead>
          {effects.map((e) => {
            const attempts = steps.filter((s) => s.effect?.effectId === e.id);
            return (
              <tbody
                key={e.id}
                className="border-t border-slate-100 align-top"
                data-testid="action-effect"
                data-effect-id={e.id}
                data-kind={e.kind}
                data-status={e.status}
              >
                <tr>
                  <td className="py-1 pr-3">{code(e.kind)}</td>
                  <td className="py-1 pr-3" data-testid="effect-status">
                    {t("statusName", { status: e.status })}
                  </td>
                  <td className="py-1 pr-3 text-right tabular-nums" data-testid="effect-attempts">
                    {e.attempts}
                  </td>
                  <td className="py-1 pr-3" data-testid="effect-last-error">
                    {code(e.lastErrorCode)}
                  </td>
                  <td className="py-1 pr-3" data-testid="effect-provider-ref">
                    {code(e.providerRef)}
                  </td>
                  <td className="py-1 text-xs text-slate-600">
                    {t.rich("confirmedAt", { time: () => <UtcTime at={e.createdAt} /> })}
                    {e.settledAt && (
                      <>
                        <br />
                        {t.rich("settledAt", { time: () => <UtcTime at={e.settledAt!} /> })}
                      </>
                    )}
                    {e.status === "pending" && (
                      <>
                        <br />
                        {t.rich("nextAttempt", { time: () => <UtcTime at={e.nextAttemptAt} /> })}
                      </>
                    )}
                  </td>
                </tr>
                {attempts.length > 0 && (
                  <tr>
                    <td colSpan={6} className="pb-2">
                      <ol className="ml-4 list-disc text-xs text-slate-700">
                        {attempts.map((s) => (
                          <li key={s.key} data-testid="effect-attempt">
                            {t("attempt", {
                              attempt: s.effect?.attempt ?? "?",
                              outcome: s.effect?.outcome ?? "unknown",
                            })}
                            {s.errorCode && <> · {code(s.errorCode)}</>}
                            {" · "}
                            <UtcTime at={s.at} />
                            {s.eventId !== null && (
                              <>
                                {" · "}
                                <Link href={`/audit/events/${s.eventId}`} className="underline">
                                  {t("event", { id: s.eventId })}
                                </Link>
                              </>
                            )}
                          </li>
                        ))}
                      </ol>
                    </td>
                  </tr>
                )}
              </tbody>
            );
          })}
        </table>
      </div>
    </div>
  );
}
