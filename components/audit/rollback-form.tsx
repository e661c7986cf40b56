"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useId, useState } from "react";

/**
 * The canary's kill switch for staff: a reason, then POST /api/staff/candidate/rollback (same
 * origin, audited and raised as an alert there). The page re-renders with the rollback shown.
 */
export function RollbackForm() {
  const t = useTranslations("candidate");
  const router = useRouter();
  const id = useId();
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const trimmed = reason.trim();
      const res = await fetch("/api/staff/candidate/rollback", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(trimmed ? { reason: trimmed } : {}),
      });
      if (!res.ok) {
        const answer = (await res.json().catch(() => null)) as {
          error?: { message?: string };
        } | null;
        setError(answer?.error?.message ?? t("rollbackFailed", { status: res.status }));
        return;
      }
      setReason("");
      router.refresh();
    } catch {
      setError(t("rollbackNetwork"));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form onSubmit={submit} className="grid gap-2" data-testid="rollback-form">
      <label htmlFor={`${id}-reason`} className="text-sm font-medium">
        {t("rollbackReason")}
      </label>
      <input
        id={`${id}-reason`}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        maxLength={500}
        className="min-h-11 rounded-lg border border-slate-300 px-3 py-2 text-sm"
        data-testid="rollback-reason"
      />
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="submit"
          disabled={busy}
          className="min-h-11 rounded-lg bg-red-700 px-4 py-2 text-sm font-medium text-white hover:bg-red-800 disabled:opacity-60"
          data-testid="rollback-button"
        >
          {busy ? t("rollingBack") : t("rollback")}
        </button>
        {error && (
          <span role="alert" className="text-sm text-red-700" data-testid="rollback-error">
            {error}
          </span>
        )}
      </div>
    </form>
  );
}
