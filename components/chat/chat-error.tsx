"use client";
import Link from "next/link";
import type { ReactNode } from "react";
import { type ChatProblem, MESSAGE_LIMIT } from "@/lib/chat-client/errors";
import { useSecondsLeft } from "./use-seconds-left";

type Props = {
  problem: ChatProblem;
  /** Resends the last message (after a model or network failure). */
  onRetry: () => void;
  signInHref: string;
  /** For rate limiting: when sending is allowed again (epoch ms). */
  retryAt: number | null;
};

const BUTTON =
  "ml-2 rounded-lg border border-current px-3 py-1 text-sm font-medium hover:bg-white/60";

/** An error inside the conversation, saying what happened and what to do next. */
export function ChatError({ problem, onRetry, signInHref, retryAt }: Props) {
  const secondsLeft = useSecondsLeft(problem.kind === "rate_limited" ? retryAt : null);
  let body: ReactNode;
  switch (problem.kind) {
    case "too_long":
      body = `Your message is longer than ${MESSAGE_LIMIT} characters, so it was not sent. Shorten it and send it again.`;
      break;
    case "rate_limited":
      body =
        secondsLeft > 0
          ? `You are sending messages faster than we can answer. You can send again in ${secondsLeft} s.`
          : "You can send messages again now.";
      break;
    case "action_pending":
      body =
        "A request is waiting for your decision. Confirm or cancel it before you send a new message.";
      break;
    case "unauthenticated":
      body = (
        <>
          Your session has expired, so the message was not sent.{" "}
          <Link href={signInHref} className="font-medium underline" data-testid="sign-in-again">
            Sign in again
          </Link>{" "}
          to continue; this chat is saved.
        </>
      );
      break;
    case "not_found":
      body = (
        <>
          This chat no longer exists.{" "}
          <Link href="/chat" className="font-medium underline">
            Open your chats
          </Link>
        </>
      );
      break;
    case "model_unavailable":
    case "network":
    case "unknown":
      body = (
        <>
          {problem.kind === "network"
            ? "We could not reach the server. Check your connection, then retry."
            : "The assistant could not answer just now. Your message was not lost; try again."}
          <button type="button" onClick={onRetry} className={BUTTON} data-testid="chat-retry">
            Retry
          </button>
        </>
      );
      break;
  }
  return (
    <div
      role="alert"
      className="rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900"
      data-testid="chat-error"
      data-kind={problem.kind}
    >
      {body}
    </div>
  );
}
