"use client";
// First: configures zod for the browser before any module of this page builds a schema.
import "@/lib/chat-client/zod-jitless";
import { useEffect } from "react";
import { ChatShell } from "@/components/chat/chat-shell";
import type { ChatSnapshot } from "@/lib/chat-client/schemas";
import type { Locale } from "@/lib/i18n/locales";
import type { ConversationMessages } from "@/lib/i18n/messages";
import { VerifyOrder } from "../guest/verify-order";
import { listenForPage } from "./frame-bridge";

/** The embedded chat: one conversation, compact, with the same cards as the full page. */
export function EmbedChat({
  allowed,
  snapshot,
  conversation,
  notice,
  visitor,
}: {
  allowed: string[];
  snapshot: ChatSnapshot;
  /** Said above the chat (a visitor: sign in at the store to ask about your orders). */
  notice: string | null;
  /** Not signed in at the store: asks about the policy only, and no card ever comes. */
  visitor: boolean;
  conversation: Record<Locale, ConversationMessages>;
}) {
  useEffect(() => listenForPage(allowed), [allowed]);
  return (
    <main className="flex h-dvh min-h-0 flex-col" aria-label={snapshot.chat.title ?? undefined}>
      {notice && (
        <p
          className="border-b border-slate-200 bg-amber-50 px-3 py-2 text-sm text-slate-800"
          data-testid="embed-status"
        >
          {notice}
        </p>
      )}
      {visitor && <VerifyOrder />}
      <ChatShell
        snapshot={snapshot}
        onTurnFinished={() => {}}
        conversation={conversation}
        // Inside the frame a new chat and a lost session stay in the frame: our other pages
        // may not be framed at all.
        chatHref={(id) => `/embed/chat?chat=${encodeURIComponent(id)}`}
        signInHref="/embed"
        visitor={visitor}
      />
    </main>
  );
}
