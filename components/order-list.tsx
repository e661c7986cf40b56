import type { OrderWithItems } from "@/db/queries/orders";
import { formatDate } from "@/lib/format/date";
import { formatMoney } from "@/lib/format/money";
import { own } from "@/lib/own";

const STATUS_LABEL: Record<OrderWithItems["status"], string> = {
  processing: "Processing",
  shipped: "Shipped",
  in_transit: "In transit",
  delivered: "Delivered",
  cancelled: "Cancelled",
};

const STATUS_STYLE: Record<OrderWithItems["status"], string> = {
  processing: "bg-amber-100 text-amber-900",
  shipped: "bg-sky-100 text-sky-900",
  in_transit: "bg-sky-100 text-sky-900",
  delivered: "bg-emerald-100 text-emerald-900",
  cancelled: "bg-slate-200 text-slate-800",
};

export function OrderList({ orders }: { orders: OrderWithItems[] }) {
  if (orders.length === 0) {
    return <p className="text-slate-600">You have no orders yet.</p>;
  }
  return (
    <ul className="grid gap-3" data-testid="order-list">
      {orders.map((o) => (
        <li
          key={o.id}
          className="rounded-xl border border-slate-200 bg-white p-4"
          data-testid={`order-${o.id}`}
        >
          <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
            <h2 className="font-semibold">Order {o.id}</h2>
            <span
              className={`rounded-full px-2 py-0.5 text-xs font-medium ${own(STATUS_STYLE, o.status) ?? ""}`}
              data-testid="order-status"
            >
              {own(STATUS_LABEL, o.status) ?? o.status}
            </span>
            {o.returnRequest && (
              <span className="rounded-full bg-violet-100 px-2 py-0.5 text-xs font-medium text-violet-900">
                Return requested
              </span>
            )}
            <span className="ml-auto font-medium">{formatMoney(o.totalMinor, o.currency)}</span>
          </div>
          <ul className="mt-2 text-sm text-slate-700">
            {o.items.map((i) => (
              <li key={i.name}>
                {i.quantity} × {i.name}
              </li>
            ))}
          </ul>
          <p className="mt-2 text-xs text-slate-600">
            Placed {formatDate(o.placedAt)}
            {o.deliveredAt && <> · Delivered {formatDate(o.deliveredAt)}</>}
            {!o.deliveredAt && o.etaAt && o.status !== "cancelled" && (
              <> · Expected {formatDate(o.etaAt)}</>
            )}
          </p>
        </li>
      ))}
    </ul>
  );
}
