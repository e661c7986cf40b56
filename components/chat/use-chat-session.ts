"use client";
import { useChat } from "@ai-sdk/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { fetchChatSnapshot } from "@/lib/api-client/browser";
import { type ChatProblem, isRequestRejected, toChatProblem } from "@/lib/chat-client/errors";
import { announcedHandoff, followHandoff } from "@/lib/chat-client/handoff";
import type { ChatMessage, ChatSnapshot, Handoff, PendingAction } from "@/lib/chat-client/schemas";
import { createChatTransport, messageText } from "@/lib/chat-client/transport";

/**
 * useChat for one stored chat, plus what the AI SDK leaves to the app: turning failures into
 * problems the UI explains, giving refused text back to the composer, and Retry.
 */
export function useChatSession(snapshot: ChatSnapshot, onTurnFinished: () => void) {
  const chatId = snapshot.chat.id;
  const retryAfter = useRef<string | null>(null);
  const transport = useMemo(
    () =>
      createChatTransport<ChatMessage>(chatId, (response) => {
        retryAfter.current = response.headers.get("retry-after");
      }),
    [chatId],
  );
  const chat = useChat<ChatMessage>({
    id: chatId,
    messages: snapshot.messages,
    transport,
    onFinish: ({ isError }) => {
      if (!isError) onTurnFinished();
    },
  });
  const { messages, setMessages, status, error, clearError, sendMessage, regenerate } = chat;

  const [draft, setDraft] = useState("");
  const [problem, setProblem] = useState<ChatProblem | null>(null);
  const [retryAt, setRetryAt] = useState<number | null>(null);
  const [serverPending, setServerPending] = useState<PendingAction | null>(snapshot.pendingAction);

  // A person has taken over: staff replies come without a turn, so the page polls the chat
  // (lib/chat-client/handoff.ts) while it is handed off, and takes the server's messages
  // between turns. A turn's stream announces a new handoff with its data-handoff part.
  const [handoff, setHandoff] = useState<Handoff | null>(snapshot.chat.handoff ?? null);
  const announced = announcedHandoff(messages.at(-1)?.parts ?? []);
  const following = handoff !== null || announced === "waiting";
  const between = useRef({ status, count: messages.length });
  between.current = { status, count: messages.length };
  useEffect(() => {
    if (!following) return;
    return followHandoff({
      load: () => fetchChatSnapshot(chatId),
      onSnapshot: (s) => {
        setHandoff(s.chat.handoff ?? null);
        const now = between.current;
        // Never under a turn that is streaming; and only when the server has something new.
        if ((now.status === "ready" || now.status === "error") && s.messages.length > now.count)
          setMessages(s.messages);
      },
    });
  }, [following, chatId, setMessages]);

  useEffect(() => {
    if (!error) return;
    const p = toChatProblem(error.message, retryAfter.current);
    retryAfter.current = null;
    setProblem(p);
    if (p.kind === "rate_limited" || p.kind === "overloaded")
      setRetryAt(Date.now() + p.retryAfterSeconds * 1000);
    if (!isRequestRejected(p)) return; // model/network failure: keep the bubble for Retry
    // Nothing was stored: take the bubble back and give the text back to the composer.
    // (The AI SDK calls this updater exactly once, synchronously, so the draft update is safe.)
    setMessages((ms) => {
      const last = ms.at(-1);
      if (last?.role !== "user") return ms;
      const text = messageText(last);
      setDraft((d) => (d.trim() ? d : text));
      return ms.slice(0, -1);
    });
    clearError();
    // Another tab proposed something in this chat: show it here instead of a mystery refusal.
    if (p.kind === "action_pending") {
      void fetchChatSnapshot(chatId).then((r) => {
        if (!r.ok) return;
        setMessages(r.data.messages);
        setServerPending(r.data.pendingAction);
      });
    }
  }, [error, chatId, clearError, setMessages]);

  // The rate limit lifts by itself; the banner then says so.
  const rateLimited = retryAt !== null && retryAt > Date.now();
  useEffect(() => {
    if (retryAt === null) return;
    const t = window.setTimeout(() => setRetryAt(null), Math.max(0, retryAt - Date.now()));
    return () => window.clearTimeout(t);
  }, [retryAt]);

  function send(text: string) {
    setProblem(null);
    // After a failed turn the server kept nothing of it; drop it here too before the new text.
    if (status === "error") {
      const lastUser = messages.findLastIndex((m) => m.role === "user");
      if (lastUser >= 0) setMessages(messages.slice(0, lastUser));
      clearError();
    }
    setDraft("");
    void sendMessage({ text });
  }

  /** The chat as the server has it now (after the customer edited a proposal). */
  const reload = useCallback(() => {
    void fetchChatSnapshot(chatId).then((r) => {
      if (!r.ok) return;
      setMessages(r.data.messages);
      setServerPending(r.data.pendingAction);
    });
  }, [chatId, setMessages]);

  /** Drops the banner if it is of this kind (e.g. "decide first" once the card is decided). */
  const dismissProblem = useCallback((kind: ChatProblem["kind"]) => {
    setProblem((p) => (p?.kind === kind ? null : p));
  }, []);

  function retry() {
    setProblem(null);
    // regenerate() drops a partial answer and resends the last user text (turnRequestBody).
    void regenerate();
  }

  return {
    messages,
    status,
    busy: status === "submitted" || status === "streaming" || rateLimited,
    working: status === "submitted" || status === "streaming",
    draft,
    setDraft,
    problem,
    retryAt,
    serverPending,
    handoff: following ? (handoff ?? { status: "waiting" as const, since: "" }) : null,
    send,
    retry,
    reload,
    dismissProblem,
  };
}
