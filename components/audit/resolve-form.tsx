"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { type FormEvent, useId, useState } from "react";

/** Staff: settle an effect by hand with a note (POST /api/staff/effects/{id}/resolve). */
export function ResolveForm({ effectId }: { effectId: string }) {
  const router = useRouter();
  const t = useTranslations("audit.work");
  const id = useId();
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(`/api/staff/effects/${encodeURIComponent(effectId)}/resolve`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ note }),
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
    <form onSubmit={submit} className="flex flex-wrap items-center gap-2">
      <label htmlFor={id} className="sr-only">
        {t("note")}
      </label>
      <input
        id={id}
        value={note}
        onChange={(e) => setNote(e.target.value)}
        required
        maxLength={2000}
        placeholder={t("notePlaceholder")}
        className="min-w-48 rounded-md border border-slate-300 px-2 py-1 text-sm"
        data-testid="resolve-note"
      />
      <button
        type="submit"
        disabled={busy || note.trim() === ""}
        className="rounded-md border border-slate-300 bg-white px-3 py-1 text-sm font-medium text-slate-800 hover:border-slate-400 disabled:opacity-60"
        data-testid="resolve-effect"
      >
        {busy ? t("resolving") : t("resolve")}
      </button>
      {error && (
        <span role="alert" className="text-sm text-red-700">
          {error}
        </span>
      )}
    </form>
  );
}
