import Link from "next/link";
import type { ReactNode } from "react";
import type { ActionLife, Actor } from "@/lib/audit/timeline";
import { formatUtc } from "./format";
import { JsonView } from "./json-view";

function who(actor: Actor): string {
  switch (actor.kind) {
    case "assistant":
      return `the assistant (${actor.model ?? "unknown model"}, prompt ${actor.promptVersion ?? "?"})`;
    case "customer":
      return actor.person ? `${actor.person.name} <${actor.person.email}>` : `customer ${actor.id}`;
    default:
      return `the system: ${actor.why}`;
  }
}

/** One pending action: what the customer was shown, and every step of its life. */
export function ActionLifeView({
  life,
  shownAs,
  orderTools,
}: {
  life: ActionLife;
  /** What the card said (its tool's summary sentence, in English), when the tool is known. */
  shownAs: string | null;
  /** Staff controls for the action's order (e.g. mark shipped), when it has one. */
  orderTools?: ReactNode;
}) {
  const { action, steps } = life;
  return (
    <section
      aria-labelledby="action-heading"
      className="grid gap-4 rounded-xl border border-slate-200 bg-white p-4"
      data-testid="action-life"
    >
      <div className="flex flex-wrap items-baseline gap-x-3">
        <h2 id="action-heading" className="text-lg font-semibold">
          Pending action <code className="text-sm">{action.id}</code>
        </h2>
        <span className="text-sm text-slate-700" data-testid="action-status">
          now {action.status}
        </span>
        <Link
          href={`/audit/chats/${action.chatId}`}
          className="ml-auto text-sm text-brand-700 underline"
          data-testid="open-transcript"
        >
          Open the chat transcript
        </Link>
      </div>
      {shownAs && (
        <p className="text-sm" data-testid="plan-summary">
          The customer was asked to confirm ({action.tool}): {shownAs} Proposal expires{" "}
          {formatUtc(action.expiresAt)}.
        </p>
      )}
      {orderTools}
      <div>
        <h3 className="mb-2 text-sm font-medium text-slate-700">Timeline</h3>
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
              <p className="text-sm font-medium">{s.label}</p>
              <p className="text-xs text-slate-600">
                <time dateTime={s.at.toISOString()}>{formatUtc(s.at)}</time> by {who(s.actor)}
                {s.errorCode && <> · error {s.errorCode}</>}
                {s.eventId !== null && (
                  <>
                    {" · "}
                    <Link href={`/audit/events/${s.eventId}`} className="underline">
                      event {s.eventId}
                    </Link>
                  </>
                )}
              </p>
            </li>
          ))}
        </ol>
      </div>
      <div className="grid gap-4 md:grid-cols-3">
        <JsonView label="Arguments (validated)" value={action.arguments} />
        <JsonView label="Plan shown to the customer" value={action.plan} testId="action-plan" />
        <JsonView label="Result" value={action.result} />
      </div>
    </section>
  );
}
