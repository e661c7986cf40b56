import { LocalDate } from "@/components/chat/local-date";
import { argumentRows, itemRows } from "@/lib/chat-client/action-view";
import type { PendingAction } from "@/lib/chat-client/schemas";
import { formatMoney } from "@/lib/format/money";

/**
 * The facts the customer agrees to, straight from the stored plan and arguments: exactly what
 * Confirm will execute, not what the model said about it.
 */
export function PlanDetails({ action }: { action: PendingAction }) {
  const { plan } = action;
  const items = itemRows(plan);
  const orderId =
    plan.order?.id ??
    (typeof action.arguments.orderId === "string" ? action.arguments.orderId : null);
  return (
    <dl className="mt-3 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1.5 text-sm">
      {orderId && (
        <>
          <dt className="text-slate-600">Order</dt>
          <dd data-testid="confirm-order">
            {orderId}
            {plan.order?.deliveredAt && (
              <span className="text-slate-600">
                {" "}
                · delivered <LocalDate iso={plan.order.deliveredAt} />
              </span>
            )}
          </dd>
        </>
      )}
      {items.length > 0 && (
        <>
          <dt className="text-slate-600">Items</dt>
          <dd>
            <ul data-testid="confirm-items">
              {items.map((i) => (
                <li key={i.key}>{i.text}</li>
              ))}
            </ul>
          </dd>
        </>
      )}
      {argumentRows(action.arguments).map((row) => (
        <Row key={row.label} label={row.label} value={row.value} />
      ))}
      {plan.refund && (
        <>
          <dt className="text-slate-600">Refund</dt>
          <dd data-testid="confirm-refund">
            <span className="font-semibold">
              {formatMoney(plan.refund.amount, plan.refund.currency)}
            </span>{" "}
            to {plan.refund.destination}
          </dd>
        </>
      )}
      {plan.windowEndsAt && (
        <>
          <dt className="text-slate-600">Return window</dt>
          <dd>
            until <LocalDate iso={plan.windowEndsAt} />
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
