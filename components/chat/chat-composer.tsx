"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useLocale, useMessages, useTranslations } from "next-intl";
import { type ReactNode, useRef, useState } from "react";
import { IssuedIdText } from "@/components/issued-id-text";
import { createChat, decideAction } from "@/lib/api-client/browser";
import {
  type CardOutcome,
  describeOutcome,
  outcomeFromDecision,
} from "@/lib/chat-client/action-view";
import { type ParsedCommand, parseCommand } from "@/lib/chat-client/commands";
import type { PendingAction } from "@/lib/chat-client/schemas";
import { Composer } from "./composer";

type Props = {
  /** The proposal waiting for a decision in this chat, or null. */
  open: PendingAction | null;
  onOutcome: (actionId: string, outcome: CardOutcome) => void;
  signedOut: boolean;
  signInHref: string;
  /** Where a chat's page is: `/new` moves there. */
  chatHref: (id: string) => string;
  draft: string;
  setDraft: (text: string) => void;
  send: (text: string) => void;
  busy: boolean;
  /**
   * A store's visitor who is not signed in: the policy is all they can ask about and no card
   * ever comes, so the box neither suggests orders nor offers /confirm and /cancel.
   */
  visitor?: boolean;
};

/** The commands the browser knows; the terminal's /analyze and /exit are not among them. */
const BROWSER_COMMANDS = new Set(["confirm", "cancel", "new", "help"]);

/**
 * The composer with the source course's console commands (/confirm, /cancel, /new, /help). A
 * command is handled here and never sent as a message, so the model never sees it; /confirm and
 * /cancel decide the open card exactly as its buttons do. While a card waits, only commands are
 * accepted. What a command did is said in a live region, in the conversation's language.
 */
export function ChatComposer(props: Props) {
  const { open, onOutcome, signInHref, setDraft } = props;
  const t = useTranslations("conversation.commands");
  const tCard = useTranslations("conversation.card");
  const tComposer = useTranslations("conversation.composer");
  const locale = useLocale();
  const messages = useMessages();
  const router = useRouter();
  const [feedback, setFeedback] = useState<ReactNode>(null);
  const running = useRef(false);
  const cmd = (chunks: ReactNode) => <code translate="no">{chunks}</code>;

  async function decide(verb: "confirm" | "cancel") {
    if (!open) {
      setFeedback(t("nothingToDecide"));
      return;
    }
    const decision = await decideAction(open, verb);
    const final = outcomeFromDecision(decision);
    if (final) {
      onOutcome(open.id, final);
      setFeedback(<IssuedIdText text={describeOutcome(final, { locale, messages }).text} />);
    } else if (decision.kind === "retryable") {
      setFeedback(
        decision.reason === "network"
          ? tCard("problemNetwork")
          : decision.reason === "server"
            ? tCard("problemServer")
            : tCard.rich("signedOut", {
                link: (chunks) => (
                  <Link href={signInHref} className="font-medium underline">
                    {chunks}
                  </Link>
                ),
              }),
      );
    }
  }

  async function startNew() {
    setFeedback(t("starting"));
    const r = await createChat();
    // The new chat's page replaces this one (the server retires the proposal left here).
    if (r.ok) router.push(props.chatHref(r.data.id));
    else if (r.status === 401) router.push(signInHref);
    else setFeedback(t("newFailed"));
  }

  async function run(command: ParsedCommand) {
    if (running.current) return;
    setDraft("");
    if (command.kind === "unknown" || !BROWSER_COMMANDS.has(command.name)) {
      const word = command.kind === "unknown" ? command.word : `/${command.name}`;
      setFeedback(t.rich("unknown", { command: word, cmd }));
      return;
    }
    running.current = true;
    try {
      if (command.name === "confirm" || command.name === "cancel") await decide(command.name);
      else if (command.name === "new") await startNew();
      else setFeedback(props.visitor ? t.rich("helpVisitor", { cmd }) : t.rich("help", { cmd }));
    } finally {
      running.current = false;
    }
  }

  return (
    <Composer
      value={props.draft}
      onChange={setDraft}
      onSend={(text) => {
        setFeedback(null);
        props.send(text);
      }}
      parse={parseCommand}
      onCommand={(c) => void run(c)}
      // Text while a card waits stays in the box, and the note is said again.
      onRefused={() => setFeedback(tComposer("pending"))}
      disabledReason={props.signedOut ? "signedOut" : open ? "pending" : null}
      commandsOnly={open !== null}
      hint={props.visitor ? t.rich("hintVisitor", { cmd }) : t.rich("hint", { cmd })}
      placeholder={props.visitor ? tComposer("placeholderVisitor") : undefined}
      feedback={feedback}
      busy={props.busy}
    />
  );
}
