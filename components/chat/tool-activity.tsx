import { useTranslations } from "next-intl";
import { type ToolNote, toolNoteValues } from "@/lib/chat-client/messages";

/**
 * A quiet line such as "Checked order 8041": what the assistant looked at, not how. A tool with
 * no wording in the catalogue gets no line.
 */
export function ToolActivity({ note }: { note: ToolNote }) {
  const t = useTranslations("conversation.toolNote");
  const values = toolNoteValues(note);
  const text = note.running
    ? t("running", values)
    : note.failed
      ? t("failed", values)
      : t("done", values);
  if (!text) return null;
  return (
    <p
      className={`flex items-center gap-1.5 text-xs ${note.failed ? "text-amber-800" : "text-slate-600"}`}
      data-testid="tool-activity"
      data-state={note.running ? "running" : note.failed ? "failed" : "done"}
    >
      <span aria-hidden="true">{note.failed ? "!" : note.running ? "…" : "✓"}</span>
      {text}
    </p>
  );
}
