"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";

/**
 * Staff: marks a processing order shipped (POST, audited), then re-renders the page. Lets the demo
 * show a shipment arriving between a proposal and its Confirm.
 */
export function MarkShippedButton({ orderId }: { orderId: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function run() {
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(`/api/staff/orders/${encodeURIComponent(orderId)}/ship`, {
        method: "POST",
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as {
          error?: { message?: string };
        } | null;
        setError(body?.error?.message ?? `Could not mark the order shipped (${res.status}).`);
        return;
      }
      router.refresh();
    } catch {
      setError("Network error: the order was not changed.");
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
        className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:border-slate-400 disabled:opacity-60"
        data-testid="mark-shipped"
      >
        {busy ? "Marking shipped…" : `Mark order ${orderId} shipped`}
      </button>
      {error && (
        <p role="alert" className="text-sm text-red-700" data-testid="mark-shipped-error">
          {error}
        </p>
      )}
    </div>
  );
}
