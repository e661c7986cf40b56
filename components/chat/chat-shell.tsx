"use client";
import { useLocale } from "next-intl";
import { useCallback, useMemo, useState } from "react";
import { ConfirmCard } from "@/components/confirm-card";
import { type CardOutcome, outcomeFromStatus } from "@/lib/chat-client/action-view";
import {
  chatLanguage,
  collectOutcomes,
  findOpenAction,
  proposalsIn,
} from "@/lib/chat-client/messages";
import type { ChatSnapshot, PendingAction } from "@/lib/chat-client/schemas";
import type { Locale } from "@/lib/i18n/locales";
import type { ConversationMessages } from "@/lib/i18n/messages";
import { ChatComposer } from "./chat-composer";
import { ChatError } from "./chat-error";
import { ConversationLanguage } from "./conversation-language";
import { EmptyChat } from "./empty-chat";
import { HandoffBanner } from "./handoff-banner";
import { MessageList } from "./message-list";
import { useChatSession } from "./use-chat-session";

type Props = {
  snapshot: ChatSnapshot;
  onTurnFinished: () => void;
  /** The conversation's texts in every language (the chat's language decides which). */
  conversation: Record<Locale, ConversationMessages>;
  /** Where a chat's page is (`/new` goes there); the embedded chat has its own. */
  chatHref?: (id: string) => string;
  /** Where a signed-out customer goes; by default our sign-in, back to this chat. */
  signInHref?: string;
  /** A store's visitor who is not signed in there (the widget): the policy only. */
  visitor?: boolean;
};

/** One conversation: the messages, the proposal waiting for a decision, and the composer. */
export function ChatShell({
  snapshot,
  onTurnFinished,
  conversation,
  chatHref = (id) => `/chat/${id}`,
  signInHref: signInHrefProp,
  visitor = false,
}: Props) {
  const session = useChatSession(snapshot, onTurnFinished);
  const { messages } = session;
  const chatId = snapshot.chat.id;
  // The chrome follows the customer's latest message, like the model's answers do; before the
  // first one, the interface language.
  const uiLocale = useLocale();
  const lang = useMemo(
    () => (messages.some((m) => m.role === "user") ? chatLanguage(messages) : uiLocale),
    [messages, uiLocale],
  );
  const signInHref = signInHrefProp ?? `/sign-in?next=${encodeURIComponent(chatHref(chatId))}`;

  // Final states decided in this page (click, countdown). They win over the stored status, which
  // was read before the decision.
  const [decided, setDecided] = useState<Record<string, CardOutcome>>({});
  const { dismissProblem, reload } = session;
  const onOutcome = useCallback(
    (id: string, outcome: CardOutcome) => {
      // A decision is final, except waiting for staff approval, which the staff decision ends.
      setDecided((d) =>
        d[id] && d[id].kind !== "awaiting_approval" ? d : { ...d, [id]: outcome },
      );
      dismissProblem("action_pending");
      // The server wrote the decision's note into the chat before it answered (what was done,
      // or that nothing was), and the approval step writes its notes as staff decide: show
      // them now, as the assistant's next line. No turn is running: a card waiting for a
      // decision keeps the composer closed.
      reload();
    },
    [dismissProblem, reload],
  );

  // A card's note settled: the server may have written into the chat meanwhile (the fresh
  // proposal after the store refused a write). Not in the middle of a turn: a reload would drop
  // the answer being streamed (the message then shows on the chat's next load).
  const busy = session.busy;
  const reloadIfIdle = useCallback(() => {
    if (!busy) reload();
  }, [busy, reload]);

  const stored = useMemo(() => collectOutcomes(messages), [messages]);
  const decidedIds = useMemo(() => new Set(Object.keys(decided)), [decided]);
  const open = findOpenAction(messages, session.serverPending, decidedIds);
  const extraAction =
    session.serverPending && !proposalsIn(messages).has(session.serverPending.id)
      ? session.serverPending
      : null;

  const renderAction = (action: PendingAction) => {
    const appended = stored.get(action.id);
    // A stored outcome message is newer than a card whose data still says "pending".
    const status = action.status === "pending" && appended ? appended.status : action.status;
    const outcome = decided[action.id] ?? outcomeFromStatus(status, action.view.outcome, action);
    return (
      <ConfirmCard
        key={action.id}
        action={action}
        outcome={outcome}
        onOutcome={onOutcome}
        signInHref={signInHref}
        onRevised={session.reload}
        onNoteSettled={reloadIfIdle}
      />
    );
  };

  const problem = session.problem;

  return (
    <ConversationLanguage lang={lang} messages={conversation}>
      <div className="flex min-h-0 flex-1 flex-col">
        <MessageList
          messages={messages}
          renderAction={renderAction}
          extraAction={extraAction}
          working={session.working}
          empty={<EmptyChat onPick={session.send} />}
          error={
            problem && (
              <ChatError
                problem={problem}
                onRetry={session.retry}
                signInHref={signInHref}
                retryAt={session.retryAt}
              />
            )
          }
        />
        {session.handoff && <HandoffBanner handoff={session.handoff} />}
        <ChatComposer
          open={open}
          onOutcome={onOutcome}
          signedOut={problem?.kind === "unauthenticated"}
          signInHref={signInHref}
          chatHref={chatHref}
          draft={session.draft}
          setDraft={session.setDraft}
          send={session.send}
          busy={session.busy}
          visitor={visitor}
        />
      </div>
    </ConversationLanguage>
  );
}
