"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { createApiClient } from "@/lib/api-client";

const api = createApiClient();

/**
 * Staff: approve (executes exactly what the customer confirmed) or reject with a reason the
 * customer reads. Re-renders the queue afterwards; a refusal (already decided by a
 * colleague, expired, stale) is shown with its code.
 */
export function ApprovalButtons({ actionId }: { actionId: string }) {
  const t = useTranslations("approval.staff");
  const router = useRouter();
  const reasonId = useId();
  const [busy, setBusy] = useState<"approve" | "reject" | null>(null);
  const [reason, setReason] = useState("");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  async function decide(verb: "approve" | "reject") {
    if (busy) return;
    setBusy(verb);
    setMessage(null);
    const r =
      verb === "approve"
        ? await api.approveAction(actionId)
        : await api.rejectAction(actionId, reason);
    setBusy(null);
    if (r.ok) {
      setMessage({ ok: true, text: t(verb === "approve" ? "approved" : "rejectedDone") });
      router.refresh();
    } else {
      setMessage({ ok: false, text: t("failed", { code: r.error?.code ?? String(r.status) }) });
    }
  }

  return (
    <div className="mt-3 grid gap-2">
      <label htmlFor={reasonId} className="text-sm text-slate-700">
        {t("reason")}
      </label>
      <textarea
        id={reasonId}
        rows={2}
        maxLength={500}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        className="rounded-lg border border-slate-300 p-2 text-sm"
        data-testid="reject-reason"
      />
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          onClick={() => void decide("approve")}
          disabled={busy !== null}
          className="min-h-11 rounded-lg bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700 disabled:opacity-60"
          data-testid="approve-button"
        >
          {t(busy === "approve" ? "approving" : "approve")}
        </button>
        <button
          type="button"
          onClick={() => void decide("reject")}
          disabled={busy !== null || reason.trim() === ""}
          className="min-h-11 rounded-lg border border-slate-300 bg-white px-4 py-2 font-medium text-slate-800 hover:border-slate-400 disabled:opacity-60"
          data-testid="reject-button"
        >
          {t(busy === "reject" ? "rejecting" : "reject")}
        </button>
      </div>
      {message && (
        <p
          role={message.ok ? "status" : "alert"}
          className={`text-sm ${message.ok ? "text-emerald-800" : "text-red-700"}`}
          data-testid="approval-message"
        >
          {message.text}
        </p>
      )}
    </div>
  );
}
