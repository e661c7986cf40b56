"use client";
import { useTranslations } from "next-intl";
import { type ReactNode, useEffect, useRef } from "react";
import type { ChatMessage, PendingAction } from "@/lib/chat-client/schemas";
import { MessageView } from "./message-view";
import { TypingIndicator } from "./typing-indicator";

type Props = {
  messages: ChatMessage[];
  renderAction: (action: PendingAction) => ReactNode;
  /** A proposal the server reports as pending that no message carries (shown last). */
  extraAction: PendingAction | null;
  working: boolean;
  /** An inline error, shown where the next answer would have been. */
  error: ReactNode;
  empty: ReactNode;
};

/**
 * The conversation as a log region: screen readers hear new messages politely, and the view
 * follows the newest message unless the reader has scrolled up to read older ones.
 */
export function MessageList({ messages, renderAction, extraAction, working, error, empty }: Props) {
  const t = useTranslations("conversation");
  const scroller = useRef<HTMLDivElement>(null);
  const end = useRef<HTMLDivElement>(null);
  const last = messages.at(-1);
  const lastSize = last ? JSON.stringify(last.parts).length : 0;

  // biome-ignore lint/correctness/useExhaustiveDependencies: follow new messages, streamed text and banners
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const nearBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 160;
    if (nearBottom) end.current?.scrollIntoView({ block: "end" });
  }, [messages.length, lastSize, working, error]);

  return (
    <div ref={scroller} className="min-h-0 flex-1 overflow-y-auto px-3 py-4 sm:px-6">
      <div
        role="log"
        aria-live="polite"
        aria-label={t("log")}
        className="mx-auto flex max-w-3xl flex-col gap-4"
        data-testid="chat-log"
      >
        {messages.length === 0 && !working && empty}
        {messages.map((m, i) => (
          // Index keys: the list only grows (or loses its tail on Retry), and the server's ids
          // differ from the browser's for the same user message after a reload.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <MessageView key={i} message={m} renderAction={renderAction} />
        ))}
        {extraAction && renderAction(extraAction)}
        {working && <TypingIndicator />}
        {error}
      </div>
      <div ref={end} />
    </div>
  );
}
