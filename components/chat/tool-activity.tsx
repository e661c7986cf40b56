import type { ToolNote } from "@/lib/chat-client/messages";

/** A quiet line such as "Checked order 8041": what the assistant looked at, not how. */
export function ToolActivity({ note }: { note: ToolNote }) {
  return (
    <p
      className={`flex items-center gap-1.5 text-xs ${note.failed ? "text-amber-800" : "text-slate-600"}`}
      data-testid="tool-activity"
      data-state={note.running ? "running" : note.failed ? "failed" : "done"}
    >
      <span aria-hidden="true">{note.failed ? "!" : note.running ? "…" : "✓"}</span>
      {note.text}
    </p>
  );
}
