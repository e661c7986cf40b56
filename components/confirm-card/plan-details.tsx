import { LocalDate } from "@/components/chat/local-date";
import { argumentRows, itemRows } from "@/lib/chat-client/action-view";
import { cardText, type Lang } from "@/lib/chat-client/card-text";
import type { PendingAction } from "@/lib/chat-client/schemas";
import { formatMoney } from "@/lib/format/money";

/**
 * The facts the customer agrees to, straight from the stored plan and arguments: exactly what
 * Confirm will execute, not what the model said about it.
 */
export function PlanDetails({ action, lang = "en" }: { action: PendingAction; lang?: Lang }) {
  const t = cardText(lang);
  const { plan } = action;
  const items = itemRows(plan, lang);
  const orderId =
    plan.order?.id ??
    (typeof action.arguments.orderId === "string" ? action.arguments.orderId : null);
  return (
    <dl className="mt-3 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1.5 text-sm">
      {orderId && (
        <>
          <dt className="text-slate-600">{t.order}</dt>
          <dd data-testid="confirm-order">
            {orderId}
            {plan.order?.deliveredAt && (
              <span className="text-slate-600">
                {" "}
                · {t.delivered} <LocalDate iso={plan.order.deliveredAt} locale={t.locale} />
              </span>
            )}
          </dd>
        </>
      )}
      {items.length > 0 && (
        <>
          <dt className="text-slate-600">{t.items}</dt>
          <dd>
            <ul data-testid="confirm-items">
              {items.map((i) => (
                <li key={i.key}>{i.text}</li>
              ))}
            </ul>
          </dd>
        </>
      )}
      {argumentRows(action.arguments, lang).map((row) => (
        <Row key={row.label} label={row.label} value={row.value} />
      ))}
      {plan.refund && (
        <>
          <dt className="text-slate-600">{t.refund}</dt>
          <dd data-testid="confirm-refund">
            <span className="font-semibold">
              {formatMoney(plan.refund.amount, plan.refund.currency, t.locale)}
            </span>{" "}
            {t.refundTo} {plan.refund.destination}
          </dd>
        </>
      )}
      {plan.windowEndsAt && (
        <>
          <dt className="text-slate-600">{t.returnWindow}</dt>
          <dd>
            {t.until} <LocalDate iso={plan.windowEndsAt} locale={t.locale} />
          </dd>
        </>
      )}
    </dl>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt className="text-slate-600">{label}</dt>
      <dd className="wrap-anywhere">{value}</dd>
    </>
  );
}
