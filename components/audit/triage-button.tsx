"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";

/** Runs triage for the chat (POST), then re-renders the server page to show the stored result. */
export function TriageButton({ chatId, again }: { chatId: string; again: boolean }) {
  const t = useTranslations("audit.triage");
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<"failed" | "network" | null>(null);
  const [status, setStatus] = useState(0);
  async function run() {
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(`/api/staff/chats/${encodeURIComponent(chatId)}/triage`, {
        method: "POST",
      });
      if (!res.ok) {
        // The API's message is English for API clients; the status is enough for staff here.
        setStatus(res.status);
        setError("failed");
        return;
      }
      router.refresh();
    } catch {
      setError("network");
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="flex flex-wrap items-center gap-3">
      <button
        type="button"
        onClick={run}
        disabled={busy}
        className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60"
        data-testid="run-triage"
      >
        {busy ? t("running") : again ? t("again") : t("run")}
      </button>
      {error && (
        <p role="alert" className="text-sm text-red-700" data-testid="triage-error">
          {error === "network" ? t("network") : t("failed", { status })}
        </p>
      )}
    </div>
  );
}
