import { getTranslations } from "next-intl/server";
import type { AlertView } from "@/lib/api/drift";
import { StaffPostButton } from "./audit/staff-post-button";

/**
 * The banner of unacknowledged alerts (a drift breach, a canary's rollback) on every staff page,
 * until a staff member acknowledges each (POST /api/staff/alerts/{id}/acknowledge).
 */
export async function StaffAlerts({ alerts }: { alerts: AlertView[] }) {
  if (alerts.length === 0) return null;
  const t = await getTranslations("alerts");
  // The live region wraps the list: role="alert" on the <ul> itself would take its list role,
  // leaving its items outside any list (axe: listitem).
  return (
    <div role="alert" data-testid="staff-alerts">
      <ul className="mx-auto grid max-w-7xl gap-2 px-4 pt-3 text-sm">
        {alerts.map((a) => (
          <li
            key={a.id}
            className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-red-200 bg-red-50 p-3 text-red-900"
          >
            <span>
              {t("text", {
                kind: a.kind === "candidate.rollback" ? "rollback" : "drift",
                fingerprint: a.fingerprint ?? "–",
                at: a.at.slice(0, 16).replace("T", " "),
              })}
            </span>
            <StaffPostButton
              url={`/api/staff/alerts/${encodeURIComponent(a.id)}/acknowledge`}
              label={t("acknowledge")}
              busyLabel={t("acknowledging")}
              testId="acknowledge-alert"
            />
          </li>
        ))}
      </ul>
    </div>
  );
}
