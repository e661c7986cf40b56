"use client";
import Link from "next/link";
import { useLocale, useMessages, useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState } from "react";
import { decideAction } from "@/lib/api-client/browser";
import {
  type CardOutcome,
  describeOutcome,
  outcomeFromDecision,
} from "@/lib/chat-client/action-view";
import type { PendingAction } from "@/lib/chat-client/schemas";
import { ActionFacts } from "./confirm-card/action-facts";
import { Countdown } from "./confirm-card/countdown";
import { EditForm } from "./confirm-card/edit-form";
import { useApprovalWait } from "./confirm-card/use-approval-wait";
import { useLiveNote } from "./confirm-card/use-live-note";
import { IssuedIdText } from "./issued-id-text";

type Props = {
  action: PendingAction;
  /** Known final state (decided here, or stored); null while the offer is open. */
  outcome: CardOutcome | null;
  /** Reports a final state; the chat keeps it so a re-render cannot reopen the card. */
  onOutcome: (actionId: string, outcome: CardOutcome) => void;
  /** Where "Sign in again" leads back to. */
  signInHref: string;
  /** The customer edited it: the chat reloads and shows the new proposal. */
  onRevised?: () => void;
  /**
   * Its followed note settled: the chat reloads, for what the server wrote meanwhile (the fresh
   * proposal after the store refused the write because the order changed there).
   */
  onNoteSettled?: () => void;
};

const TONE = {
  success: "border-emerald-300 bg-emerald-50 text-emerald-900",
  neutral: "border-slate-300 bg-slate-100 text-slate-800",
  warning: "border-amber-300 bg-amber-50 text-amber-900",
};

/**
 * The one confirm card for every write tool. It is driven by the PendingAction alone (its `view`
 * is the tool's describe()), with no per-tool branch; only the customer's click here turns a
 * proposal into a change. Its chrome speaks the conversation's language (the chat's provider,
 * components/chat/conversation-language.tsx), like the tool's own texts in `view`.
 */
export function ConfirmCard({
  action,
  outcome,
  onOutcome,
  signInHref,
  onRevised,
  onNoteSettled,
}: Props) {
  const t = useTranslations("conversation.card");
  const ta = useTranslations("conversation.approval");
  const [editing, setEditing] = useState(false);
  const locale = useLocale();
  const messages = useMessages();
  const titleId = useId();
  const summaryId = useId();
  const outcomeId = useId();
  const cardRef = useRef<HTMLElement>(null);
  const outcomeRef = useRef<HTMLParagraphElement>(null);
  // A ref, not state: two clicks in one frame both see the state from before the first render.
  const inFlight = useRef(false);
  const [busy, setBusy] = useState<"confirm" | "cancel" | null>(null);
  const [problem, setProblem] = useState<"network" | "server" | "unauthenticated" | null>(null);
  const open = outcome === null;
  const { view: facts } = action;

  // Focus lands on a card that is waiting for a decision, so keyboard and screen reader users
  // meet it first (the composer is disabled meanwhile).
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the card appears
  useEffect(() => {
    if (open) cardRef.current?.focus();
  }, []);

  // When the buttons disappear (decided, expired) keep keyboard focus on what replaced them,
  // unless the customer has already moved on elsewhere.
  const wasOpen = useRef(open);
  useEffect(() => {
    const active = document.activeElement;
    const focusWasHere = !active || active === document.body || cardRef.current?.contains(active);
    if (wasOpen.current && !open && focusWasHere) outcomeRef.current?.focus();
    wasOpen.current = open;
  }, [open]);

  async function decide(verb: "confirm" | "cancel") {
    if (inFlight.current || !open) return;
    inFlight.current = true;
    setBusy(verb);
    setProblem(null);
    const decision = await decideAction(action, verb);
    const final = outcomeFromDecision(decision);
    setBusy(null);
    if (final) {
      onOutcome(action.id, final);
    } else {
      inFlight.current = false;
      if (decision.kind === "retryable") setProblem(decision.reason);
    }
  }

  // Waiting for staff: the card follows the action until they decide, without a reload.
  useApprovalWait(action.id, outcome?.kind === "awaiting_approval", onOutcome);

  // An executed action's note follows its refund (processing, then refunded or failed).
  const note = useLiveNote(
    action.id,
    outcome?.kind === "executed" ? outcome.note : null,
    onNoteSettled,
  );
  const shown: CardOutcome | null =
    outcome?.kind === "executed" ? { kind: "executed", note: note ?? null } : outcome;
  const view = shown ? describeOutcome(shown, { locale, messages }) : null;
  return (
    <article
      ref={cardRef}
      tabIndex={-1}
      aria-labelledby={titleId}
      aria-describedby={open ? summaryId : outcomeId}
      className="rounded-xl border border-brand-100 bg-white p-4 shadow-sm"
      data-testid="confirm-card"
      data-action-id={action.id}
      data-state={outcome?.kind ?? "pending"}
    >
      {/* Open, it asks; decided, it names what it was about, and the outcome below says what
          happened (the ask, "nothing happens until you confirm", would no longer be true). */}
      <h2 id={titleId} className="font-semibold" data-testid="confirm-title">
        {open ? facts.title : facts.subject}
      </h2>
      {open && (
        <p id={summaryId} className="mt-1 text-sm text-slate-700" data-testid="confirm-summary">
          {facts.summary}
        </p>
      )}
      {facts.warning && (
        <p
          className="mt-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid="confirm-warning"
        >
          {facts.warning}
        </p>
      )}
      <ActionFacts view={facts} />
      {open && action.requiresApproval && (
        <p
          className="mt-2 rounded-lg border border-indigo-200 bg-indigo-50 px-3 py-2 text-sm text-indigo-900"
          data-testid="confirm-approval-notice"
        >
          {ta("notice")}
        </p>
      )}
      {view ? (
        <p
          ref={outcomeRef}
          id={outcomeId}
          tabIndex={-1}
          role="status"
          className={`mt-4 rounded-lg border px-3 py-2 text-sm font-medium ${TONE[view.tone]}`}
          data-testid="confirm-outcome"
          data-settled={note ? String(note.settled) : undefined}
        >
          <IssuedIdText text={view.text} />
        </p>
      ) : (
        <div className="mt-4 space-y-3">
          <Countdown
            expiresAt={action.expiresAt}
            onExpire={() => {
              // The server applies expiry lazily and agrees; a click already on its way wins.
              if (!inFlight.current) onOutcome(action.id, { kind: "expired" });
            }}
          />
          {problem && (
            <p role="alert" className="text-sm text-red-700" data-testid="confirm-problem">
              {problem === "network"
                ? t("problemNetwork")
                : problem === "server"
                  ? t("problemServer")
                  : t.rich("signedOut", {
                      link: (chunks) => (
                        <Link href={signInHref} className="font-medium underline">
                          {chunks}
                        </Link>
                      ),
                    })}
            </p>
          )}
          {editing && action.edit ? (
            <EditForm
              actionId={action.id}
              fields={action.edit.fields}
              onClose={() => setEditing(false)}
              onSaved={() => {
                setEditing(false);
                onRevised?.();
              }}
            />
          ) : null}
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              onClick={() => void decide("confirm")}
              disabled={busy !== null}
              aria-describedby={summaryId}
              className="min-h-11 rounded-lg bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700 disabled:opacity-60"
              data-testid="confirm-button"
            >
              {t(busy === "confirm" ? "confirming" : "confirm")}
            </button>
            <button
              type="button"
              onClick={() => void decide("cancel")}
              disabled={busy !== null}
              className="min-h-11 rounded-lg border border-slate-300 bg-white px-4 py-2 font-medium text-slate-800 hover:border-slate-400 disabled:opacity-60"
              data-testid="cancel-button"
            >
              {t(busy === "cancel" ? "cancelling" : "cancel")}
            </button>
            {action.edit && !editing && onRevised && (
              <button
                type="button"
                onClick={() => setEditing(true)}
                disabled={busy !== null}
                className="min-h-11 rounded-lg border border-slate-300 bg-white px-4 py-2 font-medium text-slate-800 hover:border-slate-400 disabled:opacity-60"
                data-testid="edit-button"
              >
                {ta("edit")}
              </button>
            )}
          </div>
        </div>
      )}
    </article>
  );
}
