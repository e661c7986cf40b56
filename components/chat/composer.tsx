"use client";
import { useTranslations } from "next-intl";
import { type FormEvent, type KeyboardEvent, useId } from "react";
import { MESSAGE_LIMIT } from "@/lib/chat-client/errors";

type Props = {
  value: string;
  onChange: (value: string) => void;
  onSend: (text: string) => void;
  /** Why the customer cannot write right now (a pending proposal, a signed-out session), or null. */
  disabledReason: "signedOut" | "pending" | null;
  /** The assistant is answering: typing goes on, sending waits. */
  busy: boolean;
};

/** Enter sends, Shift+Enter starts a new line; the counter warns before the server would refuse. */
export function Composer({ value, onChange, onSend, disabledReason, busy }: Props) {
  const t = useTranslations("conversation.composer");
  const id = useId();
  const length = value.length;
  const over = length - MESSAGE_LIMIT;
  const disabled = disabledReason !== null;
  const canSend = !disabled && !busy && value.trim().length > 0 && over <= 0;

  function submit(e?: FormEvent) {
    e?.preventDefault();
    if (canSend) onSend(value.trim());
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    // isComposing: Enter that picks an IME candidate (Japanese, Chinese...) must not send.
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  }

  return (
    <form onSubmit={submit} className="border-t border-slate-200 bg-white px-3 py-3 sm:px-4">
      {disabled && (
        <p
          id={`${id}-reason`}
          className="mb-2 text-sm text-slate-700"
          data-testid="composer-disabled-reason"
        >
          {t(disabledReason === "signedOut" ? "signedOut" : "pending")}
        </p>
      )}
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
          placeholder={disabled ? "" : t("placeholder")}
          aria-describedby={`${id}-counter${disabled ? ` ${id}-reason` : ""}`}
          aria-invalid={over > 0}
          className="max-h-40 min-h-11 flex-1 resize-none rounded-xl border border-slate-300 bg-white px-3 py-2 field-sizing-content disabled:bg-slate-100 aria-invalid:border-red-600"
          data-testid="chat-composer"
        />
        <button
          type="submit"
          disabled={!canSend}
          className="min-h-11 rounded-xl bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700 disabled:opacity-50"
          data-testid="chat-send"
        >
          {t("send")}
        </button>
      </div>
      <p
        id={`${id}-counter`}
        className={`mt-1 text-right text-xs ${over > 0 ? "font-medium text-red-700" : "text-slate-600"}`}
        data-testid="char-counter"
      >
        {over > 0
          ? t("counterOver", { length, limit: MESSAGE_LIMIT, over })
          : t("counter", { length, limit: MESSAGE_LIMIT })}
      </p>
      {/* Announced once when the limit is crossed, not on every keystroke. */}
      <p className="sr-only" aria-live="polite">
        {over > 0 ? t("tooLongLive") : ""}
      </p>
    </form>
  );
}
