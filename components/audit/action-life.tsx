import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import type { ActionLife, Actor } from "@/lib/audit/timeline";
import { ActionEffects } from "./action-effects";
import { isErrorStatus } from "./format";
import { JsonView } from "./json-view";
import { UtcTime } from "./utc-time";

function Who({ actor }: { actor: Actor }) {
  const t = useTranslations("audit.action");
  switch (actor.kind) {
    case "assistant":
      return t("byAssistant", {
        model: actor.model ?? t("unknownModel"),
        prompt: actor.promptVersion ?? "?",
      });
    case "customer":
      return actor.person
        ? t("byCustomer", { name: actor.person.name, email: actor.person.email })
        : t("byCustomerId", { id: actor.id });
    case "staff":
      return actor.person
        ? t("byStaff", { name: actor.person.name, email: actor.person.email })
        : t("byStaffId", { id: actor.id });
    case "relay":
      return t("byRelay", { relay: actor.relay ?? "?" });
    default:
      return t("bySystem", { why: actor.why });
  }
}

/** One pending action: what the customer was shown, and every step of its life. */
export function ActionLifeView({
  life,
  shownAs,
  customerNote = null,
  orderTools,
}: {
  life: ActionLife;
  /** What the card said (its tool's summary sentence, in the page's language), when known. */
  shownAs: string | null;
  /** The note the customer's card shows now (executed: with the refund's progress). */
  customerNote?: string | null;
  /** Staff controls for the action's order (e.g. mark shipped), when it has one. */
  orderTools?: ReactNode;
}) {
  const t = useTranslations("audit");
  const { action, steps, effects } = life;
  return (
    <section
      aria-labelledby="action-heading"
      className="grid gap-4 rounded-xl border border-slate-200 bg-white p-4"
      data-testid="action-life"
    >
      <div className="flex flex-wrap items-baseline gap-x-3">
        <h2 id="action-heading" className="text-lg font-semibold">
          {t.rich("action.heading", {
            id: action.id,
            code: (chunks) => (
              <code className="text-sm" translate="no">
                {chunks}
              </code>
            ),
          })}
        </h2>
        <span className="text-sm text-slate-700" data-testid="action-status">
          {t("action.now", { status: t("actionStatus", { status: action.status }) })}
        </span>
        <Link
          href={`/audit/chats/${action.chatId}`}
          className="ml-auto text-sm text-brand-700 underline"
          data-testid="open-transcript"
        >
          {t("openTranscript")}
        </Link>
      </div>
      {shownAs && (
        <p className="text-sm" data-testid="plan-summary">
          {t.rich("action.plan", {
            tool: action.tool,
            summary: shownAs,
            expires: () => <UtcTime at={action.expiresAt} />,
          })}
        </p>
      )}
      {customerNote && (
        <p className="text-sm" data-testid="customer-note">
          {t("action.customerNote", { note: customerNote })}
        </p>
      )}
      {orderTools}
      <ActionEffects effects={effects} steps={steps} />
      <div>
        <h3 className="mb-2 text-sm font-medium text-slate-700">{t("action.timeline")}</h3>
        <ol className="relative ml-2 border-l-2 border-slate-200" data-testid="action-timeline">
          {steps.map((s) => (
            <li
              key={s.key}
              className="mb-3 ml-4"
              data-testid="timeline-step"
              data-status={s.status}
            >
              <span
                className="absolute -left-[7px] mt-1.5 h-3 w-3 rounded-full bg-brand-600"
                aria-hidden="true"
              />
              <p className="text-sm font-medium">
                {s.effect
                  ? t("action.effectStep", {
                      // An ICU select key: letters, digits and underscores (payment_refund).
                      kind: s.effect.kind.replace(/\W/g, "_"),
                      attempt: s.effect.attempt ?? "?",
                      outcome: s.effect.outcome ?? "unknown",
                    })
                  : s.afterApproval
                    ? t("action.stepAfterApproval", { status: s.status })
                    : t("action.step", { status: s.status })}
              </p>
              <p className="text-xs text-slate-600">
                {t.rich("action.when", {
                  time: () => <UtcTime at={s.at} />,
                  who: () => <Who actor={s.actor} />,
                })}
                {s.errorCode && (isErrorStatus(s.status) || s.status === "received_again") && (
                  <>
                    {" · "}
                    {t.rich("action.error", {
                      code: s.errorCode,
                      c: (chunks) => <span translate="no">{chunks}</span>,
                    })}
                  </>
                )}
                {s.eventId !== null && (
                  <>
                    {" · "}
                    <Link href={`/audit/events/${s.eventId}`} className="underline">
                      {t("action.event", { id: s.eventId })}
                    </Link>
                  </>
                )}
              </p>
            </li>
          ))}
        </ol>
      </div>
      <div className="grid gap-4 md:grid-cols-3">
        <JsonView label={t("action.arguments")} value={action.arguments} />
        <JsonView label={t("action.shownPlan")} value={action.plan} testId="action-plan" />
        <JsonView label={t("action.result")} value={action.result} />
      </div>
    </section>
  );
}
