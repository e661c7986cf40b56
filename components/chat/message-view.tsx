import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { pendingActionOf, toolNote } from "@/lib/chat-client/messages";
import type { ChatMessage, PendingAction } from "@/lib/chat-client/schemas";
import { Markdown } from "./markdown";
import { ToolActivity } from "./tool-activity";

type Props = {
  message: ChatMessage;
  /** Renders a proposal; the list decides its state so a re-render never reopens a decided card. */
  renderAction: (action: PendingAction) => ReactNode;
};

/**
 * One message, part by part. Only text, tool activity and proposals are shown; other parts
 * (step markers, outcome data, reasoning, anything unknown) render nothing.
 */
export function MessageView({ message, renderAction }: Props) {
  const t = useTranslations("conversation");
  if (message.role === "user") {
    const text = message.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
    return (
      <div className="flex justify-end" data-testid="message-user">
        <p className="max-w-[85%] whitespace-pre-wrap wrap-anywhere rounded-2xl rounded-br-sm bg-brand-600 px-4 py-2 text-white">
          <span className="sr-only">{t("you")} </span>
          {text}
        </p>
      </div>
    );
  }
  if (message.role !== "assistant") return null;
  const staff = message.parts.find((p) => p.type === "data-staff");
  if (staff) {
    // A person's reply (role staff on the server): their name, their words as written.
    const text = message.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
    return (
      <div className="space-y-1" data-testid="message-staff">
        <p className="text-xs font-medium text-emerald-800">
          {t("handoff.staff", { name: staff.data.name })}
        </p>
        <p className="max-w-[95%] whitespace-pre-wrap wrap-anywhere rounded-2xl rounded-bl-sm bg-emerald-50 px-4 py-2 ring-1 ring-emerald-200">
          {text}
        </p>
      </div>
    );
  }

  const body: ReactNode[] = [];
  const cards: ReactNode[] = [];
  message.parts.forEach((part, i) => {
    // Parts have no ids of their own and only ever get appended, so the index is stable.
    const key = `${message.id}-${i}`;
    if (part.type === "text") {
      if (part.text.trim())
        body.push(
          <div
            key={key}
            className="max-w-[95%] rounded-2xl rounded-bl-sm bg-white px-4 py-2 shadow-sm ring-1 ring-slate-200"
          >
            <Markdown text={part.text} />
          </div>,
        );
      return;
    }
    const action = pendingActionOf(part);
    // The card goes after the words that introduce it, whatever order the stream sent them in.
    if (action) cards.push(<div key={key}>{renderAction(action)}</div>);
    const note = toolNote(part);
    if (note) body.push(<ToolActivity key={key} note={note} />);
  });
  const rendered = [...body, ...cards];
  if (rendered.length === 0) return null;
  return (
    <div className="space-y-2" data-testid="message-assistant">
      <span className="sr-only">{t("assistant")}</span>
      {rendered}
    </div>
  );
}
