"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";

/** Runs triage for the chat (POST), then re-renders the server page to show the stored result. */
export function TriageButton({ chatId, label }: { chatId: string; label: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function run() {
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(`/api/staff/chats/${encodeURIComponent(chatId)}/triage`, {
        method: "POST",
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as {
          error?: { message?: string };
        } | null;
        setError(body?.error?.message ?? `Triage failed (${res.status}).`);
        return;
      }
      router.refresh();
    } catch {
      setError("Network error: triage did not run.");
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
        {busy ? "Triaging…" : label}
      </button>
      {error && (
        <p role="alert" className="text-sm text-red-700" data-testid="triage-error">
          {error}
        </p>
      )}
    </div>
  );
}
