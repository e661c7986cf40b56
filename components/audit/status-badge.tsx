import { useTranslations } from "next-intl";
import type { AuditStatus } from "@/db/schema";
import { own } from "@/lib/own";

/** Colour groups: green done, blue waiting on the customer, amber/orange refused or slow,
 *  red broken, grey ended without effect. The text label always carries the meaning too. */
export const STATUS_STYLE: Record<AuditStatus, { badge: string; bar: string }> = {
  success: { badge: "bg-emerald-100 text-emerald-900", bar: "bg-emerald-500" },
  confirmation_required: { badge: "bg-sky-100 text-sky-900", bar: "bg-sky-500" },
  business_error: { badge: "bg-amber-100 text-amber-900", bar: "bg-amber-500" },
  timeout: { badge: "bg-orange-100 text-orange-900", bar: "bg-orange-500" },
  stale: { badge: "bg-yellow-100 text-yellow-900", bar: "bg-yellow-500" },
  rejected: { badge: "bg-rose-100 text-rose-900", bar: "bg-rose-500" },
  technical_error: { badge: "bg-red-100 text-red-900", bar: "bg-red-600" },
  cancelled: { badge: "bg-slate-200 text-slate-800", bar: "bg-slate-500" },
  expired: { badge: "bg-zinc-200 text-zinc-800", bar: "bg-zinc-500" },
  superseded: { badge: "bg-violet-100 text-violet-900", bar: "bg-violet-500" },
  awaiting_approval: { badge: "bg-indigo-100 text-indigo-900", bar: "bg-indigo-500" },
  approval_rejected: { badge: "bg-pink-100 text-pink-900", bar: "bg-pink-500" },
};

export function StatusBadge({ status }: { status: AuditStatus }) {
  const t = useTranslations("audit");
  return (
    <span
      className={`inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ${own(STATUS_STYLE, status)?.badge ?? ""}`}
      data-testid="status-badge"
      data-status={status}
    >
      {t("status", { status })}
    </span>
  );
}
