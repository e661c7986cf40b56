import { headers } from "next/headers";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { AppHeader } from "@/components/app-header";
import { OrderList } from "@/components/order-list";
import { PAGE_WIDTH } from "@/components/page-width";
import { getCurrentUser } from "@/lib/auth/session";
import { staffOverview } from "@/lib/staff/overview";
import { listCustomerOrders } from "@/lib/store";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const user = await getCurrentUser(await headers());
  if (!user) redirect("/sign-in");
  const t = await getTranslations("home");
  // The store's orders at the time of asking (STORE_BACKEND); null: the store did not answer.
  const orders = user.role === "customer" ? await listCustomerOrders(user.id) : [];
  // Staff land on what waits for them.
  const work = user.role === "staff" ? await staffOverview() : [];
  return (
    <>
      <AppHeader user={user} width="page" />
      <main className={`${PAGE_WIDTH.page} py-6`}>
        {user.role === "staff" ? (
          <section aria-labelledby="staff-heading">
            <h1 id="staff-heading" className="text-xl font-semibold">
              {t("hello", { name: user.name })}
            </h1>
            <h2 className="mt-4 text-lg font-semibold">{t("staffWaiting")}</h2>
            {/* Each kind of work with its count and where it is done; an empty one too, so the
                page says "none" rather than leaving staff to wonder. */}
            <ul className="mt-2 grid gap-2 sm:grid-cols-2" data-testid="staff-work">
              {work.map((w) => (
                <li key={w.kind}>
                  <Link
                    href={w.href}
                    // No prefetch, as in the header (components/app-header.tsx): Next 16.4.6 can
                    // take a still-running prefetch's empty <head> for the page's, and the page
                    // it leads to then never gets its <title>.
                    prefetch={false}
                    className={`flex items-center justify-between gap-3 rounded-xl border bg-white p-4 hover:border-brand-600 ${w.count > 0 ? "border-amber-300" : "border-slate-200"}`}
                    data-testid="staff-work-item"
                    data-kind={w.kind}
                  >
                    <span>{t("staffWork", { kind: w.kind })}</span>
                    <span
                      className={`text-2xl font-semibold tabular-nums ${w.count > 0 ? "text-amber-800" : "text-slate-600"}`}
                    >
                      {t("staffCount", { count: w.count, more: w.more ? "yes" : "no" })}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
            {work.every((w) => w.count === 0) && (
              <p className="mt-2 text-slate-700" data-testid="staff-all-clear">
                {t("staffAllClear")}
              </p>
            )}
            <p className="mt-4 text-slate-700">
              {t.rich("staffIntro", {
                link: (chunks) => (
                  <Link
                    href="/audit"
                    prefetch={false}
                    className="text-brand-700 underline"
                    data-testid="audit-link"
                  >
                    {chunks}
                  </Link>
                ),
              })}
            </p>
          </section>
        ) : (
          <section aria-labelledby="orders-heading">
            <div className="mb-4 flex flex-wrap items-center gap-3">
              <h1 id="orders-heading" className="text-xl font-semibold">
                {t("ordersHeading")}
              </h1>
              <Link
                href="/chat"
                className="ml-auto rounded-lg bg-brand-600 px-3 py-2 text-sm font-medium text-white hover:bg-brand-700"
                data-testid="open-chat"
              >
                {t("openChat")}
              </Link>
            </div>
            {orders ? (
              <OrderList orders={orders} />
            ) : (
              <p className="text-slate-600" role="status" data-testid="store-unreachable">
                {t("storeUnreachable")}
              </p>
            )}
          </section>
        )}
      </main>
    </>
  );
}
