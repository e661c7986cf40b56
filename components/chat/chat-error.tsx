"use client";
import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { type ChatProblem, MESSAGE_LIMIT } from "@/lib/chat-client/errors";
import { useSecondsLeft } from "./use-seconds-left";

type Props = {
  problem: ChatProblem;
  /** Resends the last message (after a model or network failure). */
  onRetry: () => void;
  signInHref: string;
  /** For rate limiting and overload: when sending is allowed again (epoch ms). */
  retryAt: number | null;
};

const BUTTON =
  "ml-2 rounded-lg border border-current px-3 py-1 text-sm font-medium hover:bg-white/60";

/** An error inside the conversation, saying what happened and what to do next. */
export function ChatError({ problem, onRetry, signInHref, retryAt }: Props) {
  const t = useTranslations("conversation.errors");
  const secondsLeft = useSecondsLeft(
    problem.kind === "rate_limited" || problem.kind === "overloaded" ? retryAt : null,
  );
  let body: ReactNode;
  switch (problem.kind) {
    case "too_long":
      body = t("tooLong", { limit: MESSAGE_LIMIT });
      break;
    case "rate_limited":
      body = secondsLeft > 0 ? t("rateLimited", { seconds: secondsLeft }) : t("rateLimitOver");
      break;
    case "overloaded":
      body = secondsLeft > 0 ? t("overloaded", { seconds: secondsLeft }) : t("overloadOver");
      break;
    case "action_pending":
      body = t("actionPending");
      break;
    case "unauthenticated":
      body = t.rich("unauthenticated", {
        link: (chunks) => (
          <Link href={signInHref} className="font-medium underline" data-testid="sign-in-again">
            {chunks}
          </Link>
        ),
      });
      break;
    case "not_found":
      body = t.rich("notFound", {
        link: (chunks) => (
          <Link href="/chat" className="font-medium underline">
            {chunks}
          </Link>
        ),
      });
      break;
    case "model_unavailable":
    case "network":
    case "unknown":
      body = (
        <>
          {problem.kind === "network" ? t("network") : t("model")}
          <button type="button" onClick={onRetry} className={BUTTON} data-testid="chat-retry">
            {t("retry")}
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
