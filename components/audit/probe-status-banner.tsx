import { getTranslations } from "next-intl/server";
import { probeStatus } from "@/lib/chat/probes/sets";

/**
 * Says on the staff pages that the probe set no longer fits the live profile (its model, prompt
 * or tool schemas changed since it was built, or its load drifted out of the corridor), until
 * `npm run eval -- --probes` rebuilds it. Nothing when the set is current or none was built.
 */
export async function ProbeStatusBanner() {
  const status = await probeStatus();
  if (!status.stale || !status.set) return null;
  const t = await getTranslations("audit.probes");
  return (
    <p
      role="status"
      data-testid="probes-stale"
      className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
    >
      {status.reason === "drift"
        ? t("staleDrift", {
            live: status.liveFingerprint,
            since: (status.driftSince ?? status.set.builtAt).toISOString(),
          })
        : t("stale", { built: status.set.fingerprint, live: status.liveFingerprint })}{" "}
      <code translate="no">npm run eval -- --probes</code>
    </p>
  );
}
