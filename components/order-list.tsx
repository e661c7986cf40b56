import { getFormatter, getTranslations } from "next-intl/server";
import { Fragment, type ReactNode } from "react";
import type { OrderItem, OrderWithItems } from "@/db/queries/orders";
import { addressLine, orderAddress } from "@/lib/orders/address";
import { own } from "@/lib/own";

const STATUS_STYLE: Record<OrderWithItems["status"], string> = {
  processing: "bg-amber-100 text-amber-900",
  shipped: "bg-sky-100 text-sky-900",
  in_transit: "bg-sky-100 text-sky-900",
  delivered: "bg-emerald-100 text-emerald-900",
  cancelled: "bg-slate-200 text-slate-800",
};

export async function OrderList({ orders }: { orders: OrderWithItems[] }) {
  const t = await getTranslations("orders");
  const format = await getFormatter();
  if (orders.length === 0) {
    return <p className="text-slate-600">{t("none")}</p>;
  }
  const day = (d: Date) => format.dateTime(d, "day");
  return (
    <ul className="grid gap-3" data-testid="order-list">
      {orders.map((o) => (
        <li
          key={o.id}
          className="rounded-xl border border-slate-200 bg-white p-4"
          data-testid={`order-${o.id}`}
        >
          <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
            <h2 className="font-semibold">{t("title", { id: o.id })}</h2>
            <span
              className={`rounded-full px-2 py-0.5 text-xs font-medium ${own(STATUS_STYLE, o.status) ?? ""}`}
              data-testid="order-status"
            >
              {t("status", { status: o.status })}
            </span>
            {o.returnRequest && (
              <span className="rounded-full bg-violet-100 px-2 py-0.5 text-xs font-medium text-violet-900">
                {t("returnRequested")}
              </span>
            )}
            <span className="ml-auto font-medium">
              {format.number(o.totalMinor / 100, { style: "currency", currency: o.currency })}
            </span>
          </div>
          <ul className="mt-2 grid gap-1 text-sm text-slate-700">
            {o.items.map((i) => (
              <OrderLine key={i.lineId} order={o} item={i} />
            ))}
          </ul>
          <OrderAddress order={o} label={t("deliverTo")} />
          <p className="mt-2 text-xs text-slate-600">
            {t("placed", { date: day(o.placedAt) })}
            {o.deliveredAt && <> · {t("delivered", { date: day(o.deliveredAt) })}</>}
            {!o.deliveredAt && o.etaAt && o.status !== "cancelled" && (
              <> · {t("expected", { date: day(o.etaAt) })}</>
            )}
          </p>
        </li>
      ))}
    </ul>
  );
}

/** Where the order goes, on one line; nothing for an order without an address on record. */
function OrderAddress({ order, label }: { order: OrderWithItems; label: string }) {
  const address = orderAddress(order);
  if (!address) return null;
  return (
    <p className="mt-2 text-sm text-slate-700" data-testid="order-address">
      {/* A postal address is data to copy as written: no browser should translate it. */}
      <span className="text-slate-600">{label}</span>{" "}
      <span translate="no">{addressLine(address)}</span>
    </p>
  );
}

/**
 * One line of an order: what was bought (its size or colour where it has a variant, how many, the
 * price of one), then what became of some of its units: returned, with the return's state, or
 * exchanged, from which variant to which, with the exchange's state.
 */
async function OrderLine({ order, item }: { order: OrderWithItems; item: OrderItem }) {
  const t = await getTranslations("orders");
  const format = await getFormatter();
  const option = (name: string) => t("option", { option: name });
  const variant = item.variant ? optionsOf(Object.entries(item.variant.options), option) : null;
  const price = format.number(item.unitPriceMinor / 100, {
    style: "currency",
    currency: order.currency,
  });
  return (
    <li data-testid="order-line">
      <span>{t("item", { quantity: item.quantity, name: item.name })}</span>
      {variant && <span>, {variant}</span>}
      <span className="text-slate-600"> · {t("unitPrice", { price })}</span>
      {(item.returnedQuantity > 0 || item.exchanges.length > 0) && (
        <ul className="ml-4 text-violet-900">
          {item.returnedQuantity > 0 && (
            <li>
              {t("lineReturned", {
                quantity: item.returnedQuantity,
                state: order.returnRequest?.receivedAt ? "received" : "requested",
              })}
            </li>
          )}
          {item.exchanges.map((x, n) => (
            // An exchange has no id of its own on the page; its place among the line's is stable.
            // biome-ignore lint/suspicious/noArrayIndexKey: the list is rendered once, on the server
            <li key={n}>
              {t.rich("lineExchanged", {
                quantity: x.quantity,
                kind: x.kind,
                change: () => changeOf(x.from, x.to, option),
              })}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

/**
 * Options as the page shows them: "size M, colour black". The option's name is ours and
 * translated; its value is the store's data (a size code, a colour's name) and marked so that no
 * browser translates it.
 */
function optionsOf(
  options: [name: string, value: ReactNode][],
  option: (name: string) => string,
): ReactNode {
  return options.map(([name, value], n) => (
    <Fragment key={name}>
      {n > 0 && ", "}
      {option(name)} <span translate="no">{value}</span>
    </Fragment>
  ));
}

/** What an exchange changed, option by option: "size 42 → 43". */
function changeOf(
  from: Record<string, string>,
  to: Record<string, string>,
  option: (name: string) => string,
): ReactNode {
  return optionsOf(
    Object.keys(to)
      .filter((name) => from[name] !== to[name])
      .map((name) => [name, `${from[name] ?? "?"} → ${to[name]}`]),
    option,
  );
}
