"use client";
// First: configures zod for the browser before any module of this page builds a schema.
import "@/lib/chat-client/zod-jitless";
import { useTranslations } from "next-intl";
import { useCallback, useEffect, useState } from "react";
import { fetchChats } from "@/lib/api-client/browser";
import type { ChatSnapshot, ChatSummary } from "@/lib/chat-client/schemas";
import type { Locale } from "@/lib/i18n/locales";
import type { ConversationMessages } from "@/lib/i18n/messages";
import { VerifyOrder } from "../guest/verify-order";
import { ChatShell } from "./chat-shell";
import { ChatSidebar } from "./chat-sidebar";
import { NewChatButton } from "./new-chat-button";

type Initial = { ok: true; data: ChatSnapshot } | { ok: false; status: number };

/**
 * The chat page: the list of chats, a toolbar, and the conversation as the server stored it
 * (loaded by the page, so a reload shows an open proposal again).
 */
export function ChatScreen({
  chatId,
  initial,
  conversation,
  canonical = false,
  guest = false,
}: {
  /** A guest (no account): the order verification form above the conversation. */
  guest?: boolean;
  chatId: string;
  initial: Initial;
  conversation: Record<Locale, ConversationMessages>;
  /** Rendered at /chat: show /chat/{chatId} in the address bar (Next keeps its router in step). */
  canonical?: boolean;
}) {
  const t = useTranslations("chat");
  const [chats, setChats] = useState<ChatSummary[] | "failed" | null>(null);
  const [listOpen, setListOpen] = useState(false);

  const refreshChats = useCallback(() => {
    void fetchChats().then((r) => setChats(r.ok ? r.data : "failed"));
  }, []);
  // Also when the page moves to another chat: a chat just created is not in the old list, and
  // the phone-sized list panel should close behind the chosen chat.
  // biome-ignore lint/correctness/useExhaustiveDependencies: chatId is the trigger, not an input
  useEffect(() => {
    refreshChats();
    setListOpen(false);
  }, [chatId, refreshChats]);

  useEffect(() => {
    if (canonical && window.location.pathname !== `/chat/${chatId}`)
      window.history.replaceState(null, "", `/chat/${chatId}`);
  }, [canonical, chatId]);

  const title =
    (Array.isArray(chats) ? chats.find((c) => c.id === chatId)?.title : null) ||
    (initial.ok ? initial.data.chat.title : null) ||
    t("untitled");

  return (
    <div className="flex min-h-0 flex-1 flex-col md:flex-row">
      <ChatSidebar chats={chats} currentId={chatId} open={listOpen} id="chat-list-panel" />
      <main className="flex min-h-0 flex-1 flex-col" aria-labelledby="chat-title">
        <div className="flex items-center gap-2 border-b border-slate-200 bg-white px-3 py-2 sm:px-4">
          <button
            type="button"
            onClick={() => setListOpen((o) => !o)}
            aria-expanded={listOpen}
            aria-controls="chat-list-panel"
            className="min-h-11 rounded-lg border border-slate-300 px-3 text-sm md:hidden"
          >
            {t("toggleList")}
          </button>
          <h1
            id="chat-title"
            className="min-w-0 flex-1 truncate font-semibold"
            data-testid="chat-title"
          >
            {title}
          </h1>
          <NewChatButton />
        </div>
        {guest && <VerifyOrder />}
        {initial.ok ? (
          <ChatShell
            key={chatId}
            snapshot={initial.data}
            onTurnFinished={refreshChats}
            conversation={conversation}
          />
        ) : (
          <LoadProblem />
        )}
      </main>
    </div>
  );
}

/** Unknown and foreign chats never get here (the page answers 404); this is a server fault. */
function LoadProblem() {
  const t = useTranslations("chat");
  return (
    <div
      role="alert"
      className="m-6 rounded-lg border border-red-300 bg-red-50 p-4 text-red-900"
      data-testid="chat-error"
    >
      {t("loadProblem")}
    </div>
  );
}
