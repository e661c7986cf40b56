"use client";
import { useTranslations } from "next-intl";
import { type FormEvent, type KeyboardEvent, type ReactNode, useId } from "react";
import type { ParsedCommand } from "@/lib/chat-client/commands";
import { MESSAGE_LIMIT } from "@/lib/chat-client/errors";

type Props = {
  value: string;
  onChange: (value: string) => void;
  onSend: (text: string) => void;
  /** Reads a line as a command ("/confirm"), or null for a message. */
  parse: (text: string) => ParsedCommand | null;
  /** A typed command: handled by the page, never sent. */
  onCommand: (command: ParsedCommand) => void;
  /** Text (not a command) submitted while only commands are accepted: not sent. */
  onRefused: () => void;
  /**
   * The note above the box: a signed-out session (nothing can be typed) or a proposal waiting
   * for a decision (only commands are accepted); null when there is nothing to say.
   */
  disabledReason: "signedOut" | "pending" | null;
  /** A proposal waits: only commands are accepted, other text stays in the box. */
  commandsOnly: boolean;
  /** The commands the box understands. */
  hint: ReactNode;
  /** What the empty box suggests asking (a visitor can ask about the policy only). */
  placeholder?: string;
  /** What the last command did (or why text was not sent); announced to screen readers. */
  feedback: ReactNode;
  /** The assistant is answering: typing goes on, sending waits (commands do not). */
  busy: boolean;
};

/**
 * Enter sends, Shift+Enter starts a new line; the counter warns before the server would refuse.
 * A line starting with "/" is a command for the page, as in the terminal chat.
 */
export function Composer(props: Props) {
  const { value, onChange, disabledReason, commandsOnly, busy } = props;
  const t = useTranslations("conversation.composer");
  const id = useId();
  const length = value.length;
  const over = length - MESSAGE_LIMIT;
  const disabled = disabledReason === "signedOut";
  const command = props.parse(value);
  const canSubmit =
    !disabled &&
    value.trim().length > 0 &&
    (command !== null || (!commandsOnly && !busy && over <= 0));

  function submit(e?: FormEvent) {
    e?.preventDefault();
    if (disabled || value.trim() === "") return;
    if (command) props.onCommand(command);
    else if (commandsOnly) props.onRefused();
    else if (canSubmit) props.onSend(value.trim());
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    // isComposing: Enter that picks an IME candidate (Japanese, Chinese...) must not send.
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  }

  const described = [`${id}-counter`, `${id}-hint`, disabledReason ? `${id}-reason` : null];
  return (
    <form onSubmit={submit} className="border-t border-slate-200 bg-white px-3 py-3 sm:px-4">
      {disabledReason && (
        <p
          id={`${id}-reason`}
          className="mb-2 text-sm text-slate-700"
          data-testid="composer-disabled-reason"
        >
          {t(disabledReason === "signedOut" ? "signedOut" : "pending")}
        </p>
      )}
      {/* What a command did, read out when it changes (and shown). */}
      <p
        role="status"
        aria-live="polite"
        className={props.feedback ? "mb-2 text-sm text-slate-800" : "sr-only"}
        data-testid="composer-feedback"
      >
        {props.feedback}
      </p>
      <div className="flex items-end gap-2">
        <label htmlFor={`${id}-input`} className="sr-only">
          {t("label")}
        </label>
        <textarea
          id={`${id}-input`}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={onKeyDown}
          disabled={disabled}
          rows={1}
          placeholder={disabled || commandsOnly ? "" : (props.placeholder ?? t("placeholder"))}
          aria-describedby={described.filter(Boolean).join(" ")}
          aria-invalid={over > 0}
          className="max-h-40 min-h-11 flex-1 resize-none rounded-xl border border-slate-300 bg-white px-3 py-2 field-sizing-content disabled:bg-slate-100 aria-invalid:border-red-600"
          data-testid="chat-composer"
          data-mode={disabled ? "disabled" : commandsOnly ? "commands" : "message"}
        />
        <button
          type="submit"
          disabled={!canSubmit}
          className="min-h-11 rounded-xl bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700 disabled:opacity-50"
          data-testid="chat-send"
        >
          {t("send")}
        </button>
      </div>
      <div className="mt-1 flex flex-wrap justify-between gap-x-4 text-xs text-slate-600">
        <p id={`${id}-hint`} data-testid="composer-hint">
          {props.hint}
        </p>
        <p
          id={`${id}-counter`}
          className={`ml-auto text-right ${over > 0 ? "font-medium text-red-700" : ""}`}
          data-testid="char-counter"
        >
          {over > 0
            ? t("counterOver", { length, limit: MESSAGE_LIMIT, over })
            : t("counter", { length, limit: MESSAGE_LIMIT })}
        </p>
      </div>
      {/* Announced once when the limit is crossed, not on every keystroke. */}
      <p className="sr-only" aria-live="polite">
        {over > 0 ? t("tooLongLive") : ""}
      </p>
    </form>
  );
}
