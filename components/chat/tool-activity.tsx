import { useTranslations } from "next-intl";
import { type ToolNote, toolNoteValues } from "@/lib/chat-client/messages";

/** Not a tick above a refusal: the line's mark says how the call ended, as its words do. */
const ICON = { running: "…", done: "✓", refused: "✗", failed: "!" } as const;

/**
 * A quiet line such as "Checked order 8041": what the assistant looked at, not how. A tool with
 * no wording in the catalogue gets no line.
 */
export function ToolActivity({ note }: { note: ToolNote }) {
  const t = useTranslations("conversation.toolNote");
  const values = toolNoteValues(note);
  const text =
    note.state === "running"
      ? t("running", values)
      : note.state === "refused"
        ? t("refused", values)
        : note.state === "failed"
          ? t("failed", values)
          : t("done", values);
  if (!text) return null;
  const warn = note.state === "failed" || note.state === "refused";
  return (
    <p
      className={`flex items-center gap-1.5 text-xs ${warn ? "text-amber-800" : "text-slate-600"}`}
      data-testid="tool-activity"
      data-state={note.state}
    >
      <span aria-hidden="true">{ICON[note.state]}</span>
      {text}
    </p>
  );
}
