"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";

/**
 * Staff: one POST to a staff route (same origin, audited there), then the page re-renders with
 * what the server now says. A 409 (someone else did it first) re-renders as well: the page then
 * shows the state that won.
 */
export function StaffPostButton({
  url,
  label,
  busyLabel,
  testId,
  body,
  className,
}: {
  url: string;
  label: string;
  busyLabel: string;
  testId: string;
  body?: unknown;
  className?: string;
}) {
  const router = useRouter();
  const t = useTranslations("audit.work");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function run() {
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(url, {
        method: "POST",
        ...(body === undefined
          ? {}
          : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
      });
      if (!res.ok && res.status !== 409) {
        const answer = (await res.json().catch(() => null)) as {
          error?: { message?: string };
        } | null;
        setError(answer?.error?.message ?? t("failed", { status: res.status }));
        return;
      }
      router.refresh();
    } catch {
      setError(t("network"));
    } finally {
      setBusy(false);
    }
  }
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <button
        type="button"
        onClick={run}
        disabled={busy}
        className={
          className ??
          "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:border-slate-400 disabled:opacity-60"
        }
        data-testid={testId}
      >
        {busy ? busyLabel : label}
      </button>
      {error && (
        <span role="alert" className="text-sm text-red-700" data-testid={`${testId}-error`}>
          {error}
        </span>
      )}
    </span>
  );
}
