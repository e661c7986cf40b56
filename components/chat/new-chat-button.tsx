"use client";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useRef, useState } from "react";
import { createChat } from "@/lib/api-client/browser";

/** Starts a fresh chat (the server retires proposals still open in the other chats). */
export function NewChatButton() {
  const t = useTranslations("chat");
  const router = useRouter();
  const creating = useRef(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  async function start() {
    if (creating.current) return; // one chat per click, even on a double click
    creating.current = true;
    setBusy(true);
    setFailed(false);
    const r = await createChat();
    if (r.ok) {
      router.push(`/chat/${r.data.id}`);
      return; // this page unmounts; keep the button disabled until it does
    }
    if (r.status === 401) {
      router.push(`/sign-in?next=${encodeURIComponent(window.location.pathname)}`);
      return;
    }
    creating.current = false;
    setBusy(false);
    setFailed(true);
  }

  return (
    <div className="flex items-center gap-2">
      {failed && (
        <span role="alert" className="text-sm text-red-700">
          {t("newChatFailed")}
        </span>
      )}
      <button
        type="button"
        onClick={() => void start()}
        disabled={busy}
        className="min-h-11 rounded-lg bg-brand-600 px-3 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60"
        data-testid="new-chat"
      >
        {busy ? t("newChatStarting") : t("newChat")}
      </button>
    </div>
  );
}
