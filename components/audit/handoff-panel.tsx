"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";
import { createApiClient } from "@/lib/api-client";

const api = createApiClient();

/**
 * On the transcript of a handed-off chat: the staff reply box and "hand back". Both call the
 * staff API (the server decides; a reply after a release is a 409), then re-render the page.
 */
export function HandoffPanel({ chatId, status }: { chatId: string; status: "waiting" | "active" }) {
  const t = useTranslations("handoffs");
  const router = useRouter();
  const [text, setText] = useState("");
  const [busy, setBusy] = useState<"send" | "release" | null>(null);
  const [error, setError] = useState<
    { kind: "failed"; status: number } | { kind: "network" } | null
  >(null);

  async function run(kind: "send" | "release") {
    setBusy(kind);
    setError(null);
    const r = kind === "send" ? await api.replyInChat(chatId, text) : await api.releaseChat(chatId);
    setBusy(null);
    if (!r.ok) {
      setError(r.status === 0 ? { kind: "network" } : { kind: "failed", status: r.status });
      return;
    }
    if (kind === "send") setText("");
    router.refresh();
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim()) void run("send");
  };

  return (
    <section
      aria-labelledby="handoff-heading"
      className="grid gap-2 rounded-xl border border-emerald-200 bg-emerald-50 p-4"
      data-testid="handoff-panel"
      data-status={status}
    >
      <h2 id="handoff-heading" className="text-lg font-semibold">
        {t("panelHeading")} · {t("status", { status })}
      </h2>
      <form onSubmit={submit} className="grid gap-2">
        <label htmlFor="staff-reply" className="text-sm font-medium">
          {t("replyLabel")}
        </label>
        <textarea
          id="staff-reply"
          value={text}
          onChange={(e) => setText(e.target.value)}
          maxLength={2000}
          rows={3}
          className="rounded-md border border-slate-300 bg-white p-2 text-sm"
          data-testid="staff-reply-input"
        />
        <div className="flex flex-wrap gap-3">
          <button
            type="submit"
            disabled={busy !== null || !text.trim()}
            className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60"
            data-testid="staff-reply-send"
          >
            {busy === "send" ? t("sending") : t("send")}
          </button>
          <button
            type="button"
            onClick={() => void run("release")}
            disabled={busy !== null}
            className="rounded-md border border-slate-400 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-50 disabled:opacity-60"
            data-testid="staff-release"
          >
            {t("release")}
          </button>
        </div>
      </form>
      {error && (
        <p role="alert" className="text-sm text-red-700" data-testid="handoff-error">
          {error.kind === "network" ? t("network") : t("failed", { status: error.status })}
        </p>
      )}
    </section>
  );
}
