import Link from "next/link";
import { useTranslations } from "next-intl";
import type { EffectRow } from "@/db/queries/effects";
import type { TimelineStep } from "@/lib/audit/timeline";
import { StaffTable } from "./staff-table";
import { UtcTime } from "./utc-time";

/** The store an effect went to (store.* kinds): its backend and its own id of the order. */
function storeOf(e: EffectRow): { backend: string; orderRef: string } | null {
  if (!e.kind.startsWith("store.")) return null;
  const p = e.payload as { backend?: unknown; storeOrderRef?: unknown } | null;
  return typeof p?.backend === "string" && typeof p.storeOrderRef === "string"
    ? { backend: p.backend, orderRef: p.storeOrderRef }
    : null;
}

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
      <StaffTable
        labelledBy="action-effects-heading"
        rows={effects}
        rowKey={(e) => e.id}
        rowData={(e) => ({
          "data-testid": "action-effect",
          "data-effect-id": e.id,
          "data-kind": e.kind,
          "data-status": e.status,
        })}
        columns={[
          { key: "kind", header: t("kind"), cell: (e) => code(e.kind) },
          {
            key: "status",
            header: t("status"),
            testId: "effect-status",
            cell: (e) => t("statusName", { status: e.status }),
          },
          {
            key: "attempts",
            header: t("attempts"),
            numeric: true,
            testId: "effect-attempts",
            cell: (e) => e.attempts,
          },
          {
            key: "lastError",
            header: t("lastError"),
            testId: "effect-last-error",
            cell: (e) => code(e.lastErrorCode),
          },
          {
            // A write at the connected store: which store, and its own id of the order (the
            // provider reference is then the store's return, refund or order id).
            key: "store",
            header: t("store"),
            testId: "effect-store",
            cell: (e) => {
              const at = storeOf(e);
              return at ? (
                <>
                  {at.backend} · {code(at.orderRef)}
                </>
              ) : (
                "—"
              );
            },
          },
          {
            key: "providerRef",
            header: t("providerRef"),
            testId: "effect-provider-ref",
            cell: (e) => code(e.providerRef),
          },
          {
            key: "times",
            header: t("times"),
            cell: (e) => (
              <span className="text-xs text-slate-600">
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
              </span>
            ),
          },
        ]}
        detail={(e) => {
          const attempts = steps.filter((s) => s.effect?.effectId === e.id);
          if (attempts.length === 0) return null;
          return (
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
          );
        }}
      />
    </div>
  );
}
